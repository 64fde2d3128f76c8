"""The scene protocol of the page-drawn figure (explorer.plots.scene): mapping and wire format."""

import json

import numpy as np
import pytest

from explorer.plots.scene import Chunk, Panel, Scene, Track


def test_data_to_pixels_and_back_as_matplotlib_maps_an_axes():
    p = Panel("plane", x=50, y=20, w=400, h=300, xlim=(-2, 2), ylim=(0, 3))
    px = p.to_px([[-2, 0], [2, 3], [0, 1.5], [np.nan, 1]])
    np.testing.assert_allclose(px[:3], [[50, 320], [450, 20], [250, 170]])
    assert np.isnan(px[3, 0])
    assert p.to_data(250, 170) == pytest.approx((0, 1.5))


def test_a_scene_header_is_json_and_chunks_carry_binary_arrays():
    t = Track("line", "plane", "polyline", style={"color": "#000000", "width": 2})
    pre = Track("curve", "mistakes", "prefix", data={"data": [[0, 0], [1, 1], [2, 1]]})
    scene = Scene(width=800, height=400, ratio=2.0, panels=(Panel("plane", 0, 0, 10, 10,
                  (0, 1), (0, 1)),), tracks=(t, pre), below=b"", above=b"", n_steps=600,
                  chunk=256)
    head = json.loads(json.dumps(scene.header()))
    assert head["tracks"][1]["data"] == [[0, 0], [1, 1], [2, 1]]
    assert list(scene.chunk_range(2)) == list(range(512, 601))
    with pytest.raises(ValueError, match="chunk index"):
        scene.chunk_range(3)
    chunk = Chunk(start=0, count=3, arrays={"line": {"xy": np.zeros((3, 2, 2))},
                                           "curve": {"n": [1, 2, 3]}},
                  narration=("a", "b", "c"))
    content, buffers = chunk.message(run=7, index=0)
    assert content["arrays"] == {"line": {"xy": ["float32", [3, 2, 2]]},
                                 "curve": {"n": ["int32", [3]]}}
    assert [len(b) for b in buffers] == [48, 12]
    with pytest.raises(ValueError, match="one a step"):
        Chunk(start=0, count=2, arrays={"line": {"xy": np.zeros((3, 2, 2))}}).message(run=1,
                                                                                    index=0)


def test_tracks_refuse_unknown_kinds_layers_and_styles():
    with pytest.raises(ValueError, match="track kind"):
        Track("a", "plane", "spline")
    with pytest.raises(ValueError, match="track layer"):
        Track("a", "plane", "arrow", layer="middle")
    with pytest.raises(ValueError, match="unknown style keys"):
        Track("a", "plane", "arrow", style={"colour": "red"})


def test_a_prefix_tracks_gaps_travel_as_null_and_its_window_as_int32():
    """Jupyter's messages refuse NaN (allow_nan=False): a gap in a static polyline is null."""
    walk = Track("walk", "weights", "prefix", data={"data": [[0, 0], [1, 1], [np.nan, np.nan],
                                                             [2, 0], [3, 1]]})
    head = json.loads(json.dumps(walk.header(), allow_nan=False))
    assert head["data"][2] == [None, None] and head["data"][3] == [2, 0]
    chunk = Chunk(start=0, count=2, arrays={"walk": {"n": [2, 5], "start": [0, 3]}})
    content, buffers = chunk.message(run=1, index=0)
    assert content["arrays"]["walk"]["start"] == ["int32", [2]]
    assert np.frombuffer(buffers[1], dtype=np.int32).tolist() == [0, 3]
