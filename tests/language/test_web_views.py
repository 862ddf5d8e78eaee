"""Boards drawn from declarations alone (docs/language.md §3.18 Layouts, docs/web.md): a
list's rows of cells laid out as a pyramid, a map's nodes placed by the designer's
columns, pieces standing on grid cells drawn in their cell; and a layout the checker
refuses with a reason."""

from __future__ import annotations

import functools
import html
import math
import random
import re
from pathlib import Path

import pytest
from repo_paths import ROOT

from interpreter import load_game
from interpreter.core.errors import GameDefError
from interpreter.runtime.render import render
from interpreter.web.board import draw, positions_of

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
    # x 10, 60, 90 and y 40, 10, 70: each axis fitted to [0.04, 0.96], in the same order
    assert by_title["Ashby"][0] == pytest.approx(0.04) and by_title["Crewe"][0] == pytest.approx(0.96)
    assert by_title["Brill"][1] == pytest.approx(0.04) and by_title["Crewe"][1] == pytest.approx(0.96)
    assert by_title["Ashby"][0] < by_title["Brill"][0] < by_title["Crewe"][0]
    assert by_title["Brill"][1] < by_title["Ashby"][1] < by_title["Crewe"][1]
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


@functools.cache
def _loaded(name: str):
    """A bundled game, loaded once for the tests of this file that only draw it."""
    return load_game(name)


def _node(svg: str, title: str) -> str:
    """The SVG group of the node titled `title`."""
    for group in re.findall(r"<g class=\"node[^>]*>.*?</g>", svg, re.S):
        if re.search(rf"<title>{re.escape(title)}(\n|</title>)", group):
            return group
    raise AssertionError(f"no node {title}")


def _label(svg: str, title: str) -> list[str]:
    """The lines of the label of the node titled `title` as drawn (title, then its note)."""
    name = re.search(r'data-node="([^"]+)"', _node(svg, title)).group(1)
    text = _labels(svg).get(name, "")
    return [html.unescape(t) for t in re.findall(r"<tspan[^>]*>([^<]*)</tspan>", text)]


def test_the_wall_is_down_map_notes_each_superpowers_influence_under_its_country():
    """The Wall is Down, Setup (starting influence as on the board: the United States 2 US,
    the United Kingdom 1 US and 1 EU): the map notes the influence in each country's label."""
    game = _loaded("twid")
    drawing = draw(game, game.start(players=4, seed=1), None, [])
    assert _label(drawing.map, "United States") == ["United States", "US 2"]
    assert _label(drawing.map, "United Kingdom") == ["United Kingdom", "US 1 EU 1"]
    assert _label(drawing.map, "Brazil") == ["Brazil"]  # nobody there: nothing noted


def test_downfall_of_empires_map_is_drawn_from_its_zones_positions_with_armies_and_control():
    """Downfall of Empires, 3. Setup (armies placed in their zones, each zone controlled by
    its home Power): the zones stand where their `x` and `y` columns put them (Paris west
    of Berlin, Petrograd north of Kiev), the armies in a zone are noted under it, and a
    zone is coloured by who controls it (the colours named in a legend)."""
    game = _loaded("downfall_of_empires")
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
    assert _label(drawing.map, "Metz") == ["Metz", "German 5(2)×3"]  # noted in its label, counted
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


# ---- the maps: labels that never overlap, nodes that can always be clicked ----------------
# A label's box as a reader of the SVG estimates it (docs/web.md): each line's width its
# characters × its font size × 0.6, its height 1.2 × its font size, around the text's
# anchor; a node's hit area the circle of its `rect.hit` (rx = half its width).
TITLE_FONT, NOTE_FONT = 12.0, 11.0


class Node:
    """A node of a drawn map: its centre, its hit radius and its label's box (or None)."""

    def __init__(self, group: str, label: str | None) -> None:
        self.name = re.search(r'data-node="([^"]+)"', group).group(1)
        x, y = re.search(r"translate\(([-\d.]+),([-\d.]+)\)", group).groups()
        self.x, self.y = float(x), float(y)
        number = r'"([-\d.]+)"'
        hit = re.search(f'<rect class="hit" x={number} y={number} width={number} height={number} rx={number}', group)
        self.hit = None if hit is None else float(hit.group(5))
        self.box = None
        anchor = re.search(r'text-anchor="(\w+)"', label or "")
        lines = re.findall(r'<tspan( class="note")? x="([-\d.]+)" y="([-\d.]+)">([^<]*)</tspan>', label or "")
        if anchor and lines:
            left = top = math.inf
            right = bottom = -math.inf
            for note, lx, ly, text in lines:
                size = NOTE_FONT if note else TITLE_FONT
                w = len(html.unescape(text)) * size * 0.6
                ax = float(lx)
                x0 = ax if anchor.group(1) == "start" else ax - w / 2 if anchor.group(1) == "middle" else ax - w
                base = float(ly)
                left, right = min(left, x0), max(right, x0 + w)
                top, bottom = min(top, base - 0.9 * size), max(bottom, base - 0.9 * size + 1.2 * size)
            self.box = (left, top, right, bottom)


def _labels(svg: str) -> dict[str, str]:
    """Each label's SVG text, by the node it names."""
    return dict(re.findall(r'<text class="label" data-node="([^"]+)"(.*?)</text>', svg, re.S))


def _nodes(svg: str) -> list[Node]:
    labels = _labels(svg)
    groups = re.findall(r'<g class="node[^"]*"[^>]*>.*?</g>', svg, re.S)
    return [Node(g, labels.get(re.search(r'data-node="([^"]+)"', g).group(1))) for g in groups]


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _covers(box, node: Node) -> bool:
    """Whether a box reaches into a node's (circular) hit area."""
    nx, ny = min(max(node.x, box[0]), box[2]), min(max(node.y, box[1]), box[3])
    return math.hypot(nx - node.x, ny - node.y) < node.hit


def map_faults(svg: str) -> dict[str, list]:
    """What keeps a map from being read or clicked: labels overlapping each other, labels
    covering another node's hit area, nodes without a hit area or whose hit area reaches
    another node's centre, labels off the drawing."""
    nodes = _nodes(svg)
    width, height = (float(v) for v in re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg).groups())
    labelled = [n for n in nodes if n.box is not None]
    return {
        "overlapping labels": [
            (a.name, b.name) for i, a in enumerate(labelled) for b in labelled[i + 1 :] if _overlap(a.box, b.box)
        ],
        "covered nodes": [
            (b.name, a.name) for a in labelled for b in nodes if b is not a and b.hit and _covers(a.box, b)
        ],
        "no hit area": [n.name for n in nodes if not n.hit or n.hit < 5],
        "hit area over another node": [
            (a.name, b.name)
            for a in nodes
            for b in nodes
            if a is not b and a.hit and math.hypot(a.x - b.x, a.y - b.y) <= a.hit
        ],
        "off the drawing": [
            n.name for n in labelled if n.box[0] < 0 or n.box[1] < 0 or n.box[2] > width or n.box[3] > height
        ],
    }


def _positions_seen(name: str):
    """A map game's positions: the start, and every few moves of a seeded random game,
    each with the labels of the moves of the seat to play (its clickable nodes)."""
    game = _loaded(name)
    state = game.start(players=4, seed=3) if name == "twid" else game.start(seed=3)
    rng = random.Random(3)
    for _ in range(12):
        seat = game.current_player(state)
        yield game, state, seat, game.legal_moves(state) if seat is not None else []
        state = game.playout(state, rng.randrange, 7)


# (named so that tests/conftest.py's SLOW list, for whole-game sweeps, leaves them in the default run)
@pytest.mark.parametrize("name", ["twid", "downfall_of_empires"], ids=["twid_map", "downfall_of_empires_map"])
def test_a_maps_labels_never_overlap_and_every_node_can_be_clicked(name):
    """Issue: no two labels overlap and every node is clickable. At the start and as the
    game goes on (its notes grow, the nodes of the seat's moves are marked), no label
    overlaps another or another node's hit area, and every node has a hit area of its own
    that reaches no other node's centre; every node keeps at least the start of its title."""
    seen_playable = 0
    for game, state, seat, moves in _positions_seen(name):
        svg = draw(game, state, seat, moves).map
        faults = map_faults(svg)
        assert faults == {k: [] for k in faults}, faults
        nodes = _nodes(svg)
        assert len(nodes) == len(set(n for n in game.compiled.rt.links if n in game.compiled.kind_of))
        assert all(n.box is not None for n in nodes), [n.name for n in nodes if n.box is None]
        for index, tip in re.findall(
            r'<g class="node playable[^"]*" data-move="(\d+)"[^>]*><title>([^<]*)</title>', svg
        ):
            assert tip.endswith("click: " + html.escape(moves[int(index)].label)), (
                tip
            )  # the tooltip says what a click plays
            seen_playable += 1
    assert seen_playable > 0  # clickable nodes were drawn and checked too


def test_map_faults_finds_the_overlaps_of_labels_drawn_on_top_of_each_other():
    """The measure above is not blind: labels drawn at the old fixed place (above each
    node, whatever stands there) on Downfall of Empires' western front overlap and cover
    their neighbours (Nancy's label over Metz, as the issue found)."""
    game = _loaded("downfall_of_empires")
    svg = draw(game, game.start(seed=3), None, []).map
    centres = {n.name: (n.x, n.y) for n in _nodes(svg)}
    fixed = re.sub(  # each label's title alone, centred above its node as before
        r'<text class="label" data-node="(\w+)" text-anchor="\w+">'
        r'<tspan x="[-\d.]+" y="[-\d.]+">([^<]*)</tspan>.*?</text>',
        lambda m: (
            f'<text class="label" data-node="{m.group(1)}" text-anchor="middle">'
            f'<tspan x="{centres[m.group(1)][0]:.1f}" y="{centres[m.group(1)][1] - 10:.1f}">{m.group(2)}</tspan></text>'
        ),
        svg,
    )
    squeezed = re.sub(  # and the western front drawn as close as the designer's columns are
        r'(data-node="(\w+)"[^>]*)translate\(([-\d.]+),([-\d.]+)\)',
        lambda m: f"{m.group(1)}translate({float(m.group(3)) * 0.5:.1f},{float(m.group(4)) * 0.5:.1f})",
        fixed,
    )
    squeezed = re.sub(
        r'(<text class="label"[^>]*><tspan x=")([-\d.]+)(" y=")([-\d.]+)',
        lambda m: f"{m.group(1)}{float(m.group(2)) * 0.5:.1f}{m.group(3)}{(float(m.group(4)) + 10) * 0.5 - 10:.1f}",
        squeezed,
    )
    assert map_faults(svg) == {k: [] for k in map_faults(svg)}
    assert map_faults(squeezed)["overlapping labels"]
    assert map_faults(squeezed)["covered nodes"]


def test_the_wall_is_down_map_is_laid_out_geographically():
    """The Wall is Down's map from the countries' approximate longitude and latitude
    (countries.tsv's x and y, this project's own): west to east and north to south as on
    a globe, the Americas west of Europe, Asia east, Australia south of Japan."""
    game = _loaded("twid")
    g = game.compiled
    nodes = tuple(sorted(n for n in g.rt.links if n in g.kind_of))
    at = {g.rt.display(n): p for n, p in positions_of(game, nodes).items()}
    west_of = [  # each pair: the first west of the second
        tuple(pair.split(" < "))
        for pair in (
            "United States < United Kingdom; Canada < United Kingdom; Mexico < Cuba; Spain-Portugal < Italy; "
            "United Kingdom < Germany; Germany < Poland; France < Germany; Iran < India; China < Japan; "
            "India < China; Brazil < Angola; Egypt < Saudi Arabia; Israel < Iraq; Turkey < Iran"
        ).split("; ")
    ]
    north_of = [  # each pair: the first north of the second
        tuple(pair.split(" ^ "))
        for pair in (
            "Canada ^ United States; United States ^ Mexico; Sweden ^ Italy; Norway ^ Germany; Russia ^ Ukraine; "
            "Italy ^ Libya; Turkey ^ Israel; Japan ^ Australia; Venezuela ^ Argentina; Egypt ^ South Africa; "
            "Finland ^ Poland; China ^ India; North Korea ^ South Korea"
        ).split("; ")
    ]
    assert [(a, b) for a, b in west_of if not at[a][0] < at[b][0]] == []
    assert [(a, b) for a, b in north_of if not at[a][1] < at[b][1]] == []
    # the whole of the Americas west of the whole of Europe and Africa
    region = {n: g.fields["region"][n] for n in nodes}
    americas = [p[0] for n, p in positions_of(game, nodes).items() if "america" in str(region[n]).lower()]
    old_world = [p[0] for n, p in positions_of(game, nodes).items() if str(region[n]).lower() in ("europe", "africa")]
    assert max(americas) < min(old_world)


def _last(drawn: str) -> set[str]:
    """The map nodes a drawing marks as changed by the last move (by id)."""
    return set(re.findall(r'<g class="[^"]*\blast\b[^"]*"[^>]* data-node="([^"]+)"', drawn))


def test_the_last_move_is_marked_on_the_map_where_it_changed_something_and_moves_on():
    """docs/web.md: the nodes the last move changed (influence placed in a country) are
    ringed and say so in their tooltip, not by colour alone; the next move's replace them,
    and a position compared with itself marks none."""
    game = load_game("twid")
    state = game.start(players=2, seed=4)
    rng = random.Random(4)
    found = 0
    for _ in range(400):
        if state.result is not None or found >= 3:
            break
        labels = game.labels(state)
        placing = [k for k, label in enumerate(labels) if label.startswith("influence in ")]
        index = placing[0] if placing else rng.randrange(len(labels))
        before, state = state, game.apply_index(state, index)
        drawn = draw(game, state, None, [], before).map
        marked = _last(drawn)
        if placing:
            country = labels[index][len("influence in ") :].split(" (")[0]
            node = next(n for n in game.compiled.rt.links if game.compiled.rt.display(n) == country)
            assert marked == {node}, (labels[index], marked)
            group = re.search(rf'<g class="[^"]*"[^>]* data-node="{re.escape(node)}"[^>]*>(.*?)</g>', drawn, re.S)
            assert 'class="ring"' in group.group(1) and "changed by the last move" in group.group(0)
            found += 1
        assert ("ring-key" in drawn) == bool(marked)  # the legend names the ring when one is drawn
        unmoved = draw(game, state, None, [], state).map  # compared with itself: nothing changed
        assert not _last(unmoved) and 'class="ring"' not in unmoved
    assert found == 3


def _grid_of(drawing) -> str:
    return next(part for part in drawing.parts if '<table class="grid"' in part)


def test_the_last_move_is_marked_on_a_grid_and_cleared_by_the_next():
    """A grid's cell the last move changed is outlined and says so; the next move moves it."""
    game = load_game("tictactoe")
    start = game.start(seed=1)
    first = game.apply(start, "b2")
    grid = _grid_of(draw(game, first, "o", game.legal_moves(first), start))
    assert re.findall(r'<td class="last"[^>]*>', grid) == ['<td class="last" title="b2, changed by the last move">']
    second = game.apply(first, "a1")
    grid = _grid_of(draw(game, second, "x", game.legal_moves(second), first))
    assert re.findall(r'<td class="last"[^>]*>', grid) == ['<td class="last" title="a1, changed by the last move">']
    assert _grid_of(draw(game, second, "x", game.legal_moves(second))).count('class="last"') == 0
