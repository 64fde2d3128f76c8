// The page figure as anywidget loads it: the entry module (explorer/app/pagefigure.py joins it
// with the modules it imports, explorer/app/esm_join.py). The follower's page (follow.js) is the
// other entry, so PageFigure itself lives in pagefigure.js, which has no default export.

import { PageFigure } from "./pagefigure.js";

function render({ model, el }) {
  const figure = new PageFigure(model, el);
  return () => figure.destroy();
}

export default { render };
