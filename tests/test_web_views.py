"""Boards drawn from declarations alone (docs/language.md §3.18 Layouts, docs/web.md): a
list's rows of cells laid out as a pyramid, a map's nodes placed by the designer's
columns, pieces standing on grid cells drawn in their cell; and a layout the checker
refuses with a reason."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.core.errors import GameDefError
from interpreter.runtime.render import render
from interpreter.web.board import draw, positions_of

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")


def _doc_game(tmp_path: Path) -> Path:
    """The Layouts example of docs/language.md §3.18, with its two data files beside it."""
    start = DOC.index('game stack "A layout"')
    (tmp_path / "stack.game").write_text(DOC[start : DOC.index("```", start)], encoding="utf-8")
    for name in ("towns.csv", "roads.csv"):
        at = DOC.index("```csv " + name)
        body = DOC[DOC.index("\n", at) + 1 : DOC.index("```", at + 5)]
        (tmp_path / name).write_text(body, encoding="utf-8")
    return tmp_path / "stack.game"


def test_the_documented_pyramid_is_what_the_view_shows(tmp_path):
    """§3.18: `layout pyramid` centres each row over the next, as the document shows it."""
    game = load_game(str(_doc_game(tmp_path)))
    shown = render(game, game.start(seed=1), "solo")
    documented = re.search(r"shows its pyramid at the start as\n\n```\n(.*?)```", DOC, re.S).group(1)
    assert shown + "\n" == documented


def test_a_map_is_drawn_where_the_designers_columns_put_it(tmp_path):
    """`layout Town by x, y`: each town at its x and y (fitted to the drawing); without the
    item, the computed layout places them elsewhere."""
    path = _doc_game(tmp_path)
    game = load_game(str(path))
    nodes = ("Ashby", "Brill", "Crewe")
    ids = tuple(sorted(n for n in game.compiled.rt.links if n in game.compiled.kind_of))
    placed = positions_of(game, ids)
    by_title = {game.compiled.rt.display(n): placed[n] for n in ids}
    assert set(by_title) == set(nodes)
    # x 10, 60, 90 and y 40, 10, 70, each axis fitted to [0.04, 0.96]
    assert by_title["Ashby"] == pytest.approx((0.04, 0.04 + 0.92 * 30 / 60))
    assert by_title["Brill"] == pytest.approx((0.04 + 0.92 * 50 / 80, 0.04))
    assert by_title["Crewe"] == pytest.approx((0.96, 0.96))
    path.write_text(path.read_text(encoding="utf-8").replace("    layout Town by x, y\n", ""), encoding="utf-8")
    computed = positions_of(load_game(str(path)), ids)
    assert computed != placed


@pytest.mark.parametrize(
    "item, message",
    [
        ('list "P" for k in [1]: "{k}" layout pyramid', "a row of cells per item"),
        ('list "P" for k in [1]: [k] layout spiral', "no layout 'spiral'"),
        ("layout Town by x, z", "no property 'z'"),
        ("layout Town by x, name", "must be an int"),
        ("layout Nowhere by x, y", "unknown component kind 'Nowhere'"),
    ],
)
def test_a_layout_that_cannot_be_drawn_is_refused_with_a_reason(tmp_path, item, message):
    path = _doc_game(tmp_path)
    text = path.read_text(encoding="utf-8")
    text = text.replace("entity Town { x: int  y: int }", "entity Town { x: int  y: int  name: str }")
    text = text.replace("    x\n    y\n}", "    x\n    y\n    name\n}") if "name" in item else text
    text = text.replace("    layout Town by x, y\n", f"    {item}\n")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(GameDefError) as info:
        load_game(str(path))
    assert message in info.value.render()


def test_walls_and_wonders_pyramids_are_drawn_as_pyramids_of_cards():
    """Walls and Wonders (Wonders: five levels, five cards at the base, one on top): each
    seat's Wonder is drawn as rows of 1 to 5 card places, the top row first, centred."""
    game = load_game("walls_and_wonders")
    state = game.start(players=2, seed=2)
    drawing = draw(game, state, "p1", [])
    pyramid = next(p for p in drawing.parts if 'class="cells pyramid"' in p)
    groups = pyramid.split('<div class="group">')[1:]
    assert len(groups) == 2  # p1's Wonder and p2's
    for group in groups:
        rows = group.split('<div class="row">')[1:]
        assert [r.count('<span class="cell ') for r in rows] == [1, 2, 3, 4, 5]
    assert "Wonders (slot 1" not in "".join(p for p in drawing.parts if p.startswith("<pre"))  # not twice


def test_berlin_walls_hammers_are_drawn_on_their_cells():
    """Berlin Wall (Setup: each player places a hammer on the wall): a hammer is drawn in
    the cell it stands on, by its seat number, its meaning in the tooltip."""
    game = load_game("berlin_wall")
    state = game.start(players=2, seed=1)
    for _ in range(2):  # each player places a hammer
        state = game.apply_index(state, 3)
    where = {p: state.vars[game.compiled.vars["hammer"].slot][i] for i, p in enumerate(game.compiled.seats)}
    drawing = draw(game, state, None, [])
    grid = next(p for p in drawing.parts if p.startswith('<table class="grid"'))
    for number, seat in enumerate(state.players, 1):
        cell = where[seat]
        td = re.search(rf'<td title="{cell}[^"]*">(.*?)</td>', grid).group(1)
        assert f'title="hammer of {seat}">{number}</span>' in td


def _node(svg: str, title: str) -> str:
    """The SVG group of the node titled `title`."""
    for group in re.findall(r"<g class=\"node[^>]*>.*?</g>", svg, re.S):
        if re.search(rf"<title>{re.escape(title)}(\n|</title>)", group):
            return group
    raise AssertionError(f"no node {title}")


def test_the_wall_is_down_map_notes_each_superpowers_influence_under_its_country():
    """The Wall is Down, Setup (starting influence as on the board: the United States 2 US,
    the United Kingdom 1 US and 1 EU): the map notes the influence under each country."""
    game = load_game("twid")
    drawing = draw(game, game.start(players=4, seed=1), None, [])
    assert '<text class="note" y="17" text-anchor="middle">US 2</text>' in _node(drawing.map, "United States")
    assert ">US 1 EU 1</text>" in _node(drawing.map, "United Kingdom")
    assert 'class="note"' not in _node(drawing.map, "Brazil")  # nobody there: nothing noted


def test_downfall_of_empires_map_is_drawn_from_its_zones_positions_with_armies_and_control():
    """Downfall of Empires, 3. Setup (armies placed in their zones, each zone controlled by
    its home Power): the zones stand where their `x` and `y` columns put them (Paris west
    of Berlin, Petrograd north of Kiev), the armies in a zone are noted under it, and a
    zone is coloured by who controls it (the colours named in a legend)."""
    game = load_game("downfall_of_empires")
    g = game.compiled
    state = game.start(seed=1)
    drawing = draw(game, state, None, [])
    where = {
        t: re.search(r"translate\(([\d.]+),([\d.]+)\)", _node(drawing.map, t)).groups()
        for t in ("Paris", "Berlin", "Petrograd", "Kiev")
    }
    assert float(where["Paris"][0]) < float(where["Berlin"][0])
    assert float(where["Petrograd"][1]) < float(where["Kiev"][1])
    at = g.vars["at"]
    armies = [a for a in g.vars["at"].keys if state.vars[at.slot][at.key_index[a]] == "metz"]
    assert len(armies) == 3  # the three German armies of the setup
    metz = _node(drawing.map, "Metz")
    for a in armies:
        assert f"at of {g.rt.display(a)}" in metz
    assert "German 5(2)×3" in metz  # noted under it, counted
    control = g.vars["control"]
    assert "control: " + g.rt.display(state.vars[control.slot][control.key_index["metz"]]) in metz
    assert 'class="fill' in metz and 'class="legend"' in drawing.map


def test_a_computed_map_layout_is_saved_and_read_back(tmp_path, monkeypatch):
    """docs/web.md: a map without the designer's positions is laid out once from its links
    and the layout kept (in gamedef's cache): a server started again reads it, and the
    same map is drawn the same way."""
    from interpreter.web import board

    monkeypatch.setenv("GAMEDEF_CACHE", str(tmp_path / "cache"))
    nodes, links = ("a", "b", "c"), (("b",), ("a", "c"), ("b",))
    first = board.saved_layout(nodes, links)
    assert len(list((tmp_path / "cache").glob("layout-*.json"))) == 1

    def no_computing(*args):
        raise AssertionError("computed again")

    monkeypatch.setattr(board, "layout", no_computing)
    assert board.saved_layout(nodes, links) == first
    with pytest.raises(AssertionError, match="computed again"):  # another map is not the saved one
        board.saved_layout(("a", "b"), (("b",), ("a",)))


def test_the_log_narrated_state_by_state_is_the_log_narrated_whole():
    """docs/web.md: a page's log is narrated a state at a time as the game goes; at every
    point it is the last lines the seat may read of the whole game's narration."""
    import random

    from interpreter.web.board import Narration

    game = load_game("missiles_now")
    states = [game.start(players=2, seed=3)]
    rng = random.Random(3)
    narration = {seat: Narration() for seat in ("usa", "ussr", None)}
    for n in range(120):
        s = states[-1]
        if s.result is not None:
            break
        states.append(game.apply_index(s, rng.randrange(len(game.labels(s)))))
        if n % 7:
            continue  # pages ask now and then, not after every move
        for seat, narrated in narration.items():
            whole = [line for st in states for line in game.narrate(st, seat, omniscient=False)]
            assert narrated.last(game, states, seat, last=40) == whole[-40:], (n, seat)


def test_layout_rows_keeps_the_rows_flush_left_and_a_plain_list_names_its_rows(tmp_path):
    """§3.18: `layout rows` draws the same cells without moving a row; `as LABEL` names a
    plain list's lines as well."""
    path = _doc_game(tmp_path)
    text = path.read_text(encoding="utf-8").replace("layout pyramid", "layout rows")
    text = text.replace(
        "    layout Town by x, y\n",
        '    layout Town by x, y\n    list "Levels" for k in [1, 2] as "level {k}": "{count(row(k))} slots"\n',
    )
    path.write_text(text, encoding="utf-8")
    game = load_game(str(path))
    shown = render(game, game.start(seed=1), "solo").splitlines()
    assert shown == [
        "Pyramid:",
        "    level 3   0",
        "    level 2   0 0",
        "    level 1   0 0 0",
        "Levels:",
        "    level 1   3 slots",
        "    level 2   2 slots",
    ]
    drawing = draw(game, game.start(seed=1), "solo", [])
    assert 'class="cells rows"' in drawing.parts[0]
