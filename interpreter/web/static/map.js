// The map's zoom and pan (interpreter/web/board.py draws the map; static/style.css never
// lets it be narrower than 1200 px, so its labels stay readable and a narrow page scrolls
// it in its frame). The buttons shrink it to the whole map ("fit") or enlarge it; a mouse
// drag on the map pans it (a finger scrolls the frame natively); Enter or Space on a
// focused node plays it as a click does. The zoom and the scroll position are kept when
// the page draws the board again after a move.
"use strict";
(function () {
  let width = null;  // the map's width in px as the person zoomed it (null: the style sheet's)
  let scroll = null; // the frame's scroll position, kept across drawings

  function frame() { return document.querySelector(".map-scroll"); }

  function apply(svg) {
    if (width === null) {
      svg.classList.remove("zoomed");
      svg.style.removeProperty("width");
    } else {
      svg.classList.add("zoomed");
      svg.style.width = width + "px";
    }
  }

  function zoom(how) {
    const box = frame();
    if (!box) { return; }
    const svg = box.querySelector("svg.map");
    const now = svg.getBoundingClientRect().width;
    const view = box.clientWidth;
    // the point in the middle of the frame stays in the middle
    const cx = (box.scrollLeft + box.clientWidth / 2) / now;
    const cy = (box.scrollTop + box.clientHeight / 2) / svg.getBoundingClientRect().height;
    const natural = svg.viewBox.baseVal.width;  // the drawing at its own size: labels at 11 px or more
    let next;
    if (how === "fit") { next = view; }
    else if (how === "in") { next = Math.min(now * 1.5, 4 * natural); }
    else { next = Math.max(now / 1.5, view); }
    if ((now < natural && next > natural) || (now > natural && next < natural)) { next = natural; }
    width = next;
    apply(svg);
    const h = svg.getBoundingClientRect().height;
    box.scrollLeft = cx * next - box.clientWidth / 2;
    box.scrollTop = cy * h - box.clientHeight / 2;
    remember();
  }

  function remember() {
    const box = frame();
    if (box) { scroll = [box.scrollLeft, box.scrollTop]; }
  }

  function prepare() {  // a map drawn (again): its buttons shown, its zoom and scroll restored
    const box = frame();
    if (!box || box.dataset.ready) { return; }
    box.dataset.ready = "1";
    const tools = document.querySelector(".map-tools");
    if (tools) { tools.hidden = false; }
    const svg = box.querySelector("svg.map");
    if (svg) { apply(svg); }
    if (scroll) { box.scrollLeft = scroll[0]; box.scrollTop = scroll[1]; }
    box.addEventListener("scroll", remember, {passive: true});
  }

  document.addEventListener("click", (ev) => {
    const button = ev.target.closest("[data-zoom]");
    if (button) { ev.preventDefault(); zoom(button.dataset.zoom); }
  });

  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter" && ev.key !== " ") { return; }
    const node = ev.target.closest && ev.target.closest("svg.map g.node[data-move]");
    if (!node) { return; }
    ev.preventDefault();
    node.dispatchEvent(new MouseEvent("click", {bubbles: true, detail: 1}));
  });

  let drag = null;  // a mouse drag that pans the map: where it started
  document.addEventListener("pointerdown", (ev) => {
    const box = ev.target.closest && ev.target.closest(".map-scroll");
    if (!box || ev.pointerType !== "mouse" || ev.button !== 0 || ev.target.closest("g.node[data-move]")) { return; }
    drag = {box: box, x: ev.clientX, y: ev.clientY, left: box.scrollLeft, top: box.scrollTop, moved: false};
  });
  document.addEventListener("pointermove", (ev) => {
    if (!drag) { return; }
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) { return; }
    drag.moved = true;
    drag.box.classList.add("panning");
    drag.box.scrollLeft = drag.left - dx;
    drag.box.scrollTop = drag.top - dy;
  });
  document.addEventListener("pointerup", () => {
    if (drag) { drag.box.classList.remove("panning"); }
    drag = null;
  });

  new MutationObserver(prepare).observe(document.body, {childList: true, subtree: true});
  prepare();
})();
