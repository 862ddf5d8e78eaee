"""Tables from data files: `table Entity from "file" { ... }` and `links from "file"`.

Three parts. The bundled TWID spreadsheets (cards/twid/, read as they are)
load into a small game: 89 countries with their properties, 132 symmetric links, 91
cards with their texts verbatim and a card block adding an effect to a row. Then each
kind of bad file, row, cell or declaration gives one diagnostic at the table file's
(or the .game file's) line and column, with its hint. Then variants, the rules hash,
the CSV and TOML forms, and random file contents that must never raise anything but
a diagnostic.
"""

from __future__ import annotations

import os
import random
import shutil
import textwrap
import time
from pathlib import Path

import pytest
from repo_paths import ROOT

from interpreter import GameDefError, load_game
from interpreter.cli.commands import main
from interpreter.language.sheets import column_key, read_sheet, slug

TWID = ROOT / "cards" / "twid"  # the designer's tables, shipped
needs_twid = pytest.mark.skipif(not TWID.is_dir(), reason=f"the TWID tables are missing ({TWID})")


def write(folder: Path, files: dict[str, str | bytes]) -> Path:
    """Write the files of a game into `folder`; return the path of its .game file."""
    game = None
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            text = textwrap.dedent(content).lstrip("\n") if name.endswith(".game") else content
            path.write_text(text, encoding="utf-8")
        if name.endswith(".game") and game is None:
            game = path
    assert game is not None
    return game


def error_of(folder: Path, files: dict[str, str | bytes], **kwargs) -> str:
    """The rendered diagnostics of a game that must not load, the folder as <dir>."""
    path = write(folder, files)
    with pytest.raises(GameDefError) as info:
        load_game(path, **kwargs)
    return info.value.render().replace(str(folder.resolve()), "<dir>").replace(str(folder), "<dir>")


# ---- the TWID tables, as they are ------------------------------------------------------------------
TWID_GAME = """
game twid_tables "The Wall is Down: the board and the cards from their tables" {
    players 2..4
    seats [us, eu, russia, china]
}

# The file gives Russia the region "Europe-Asia" and Turkey "Europe-Middle East": they
# belong to two regions. "-" cannot split them ("Central-North America" is one region),
# so each is a region value of its own, titled as the file writes it; in_region() says
# which regions it counts in.
enum Region {
    central_north_america "Central-North America", south_america "South America",
    europe "Europe", africa "Africa", middle_east "Middle East", asia "Asia",
    europe_asia "Europe-Asia", europe_middle_east "Europe-Middle East"
}

entity Country {
    region: Region
    stability: int
    conflictive: bool
    oil: bool
    listed_neighbours: list Country
    comment: str?
}

table Country from "countries.tsv" {
    named by name with "Russia" as russia_country, "China" as china_country
    region
    stability
    conflictive
    oil
    listed_neighbours = adjacent separated by ";"
    comment = designer_comment
    ignore starting_influence, x, y  # x, y: where the web table draws it (this project's)
}

links from "adjacency.tsv"

def in_region(c: Country, r: Region) = c.region == r
    or (c.region == europe_asia and (r == europe or r == asia))
    or (c.region == europe_middle_east and (r == europe or r == middle_east))

enum Block { West "W", East "E", Both "E/W" }
enum Epoch { pre "pre 9/11", post "post 9/11" }
enum CardType { Political, Economy, Military, Punctuation, War, Personality, Treaty, Terrorism, Revolution }

entity TwidCard {
    number: str
    epoch: Epoch
    ops: int?
    block: Block?
    types: list CardType
    subtype: CardType?
    removed_after_text: bool
}

table TwidCard from "cards.tsv" {
    named by title with "Europe" as europe_scoring, "Asia" as asia_scoring,
        "Africa" as africa_scoring, "Middle East" as middle_east_scoring,
        "South America" as south_america_scoring,
        "Central/North America" as central_north_america_scoring
    number
    epoch with "pre (promo)" as pre, "pre-promo" as pre, "post-promo" as post
    ops with "P" as none
    block
    types = type separated by "/"
    subtype
    removed_after_text = removed_if_text with "*" as true, "" as false
    text
    ignore year
}

card angolan_civil_war {
    effect {
        log "{self} ({self.ops} ops): {self.text}"
    }
}

procedure play() {
    rule "Play: Angolan civil war is played for its text"
    perform angolan_civil_war.effect()
    log "{count([c for c in members(Country) if in_region(c, europe)])} countries count in Europe"
    game over []
}
"""


def twid_folder(tmp_path: Path, game: str = TWID_GAME) -> Path:
    for name in ("countries.tsv", "adjacency.tsv", "cards.tsv"):
        shutil.copy(TWID / name, tmp_path / name)
    return write(tmp_path, {"twid.game": game})


@pytest.fixture(scope="module")
def twid(tmp_path_factory):
    if not TWID.is_dir():
        pytest.skip(f"the TWID data is not beside the repository ({TWID} is absent)")
    return load_game(twid_folder(tmp_path_factory.mktemp("twid")))


def props(game, name: str) -> dict:
    c = game.compiled
    return {field: values[name] for field, values in c.fields.items() if name in values}


def tsv_rows(name: str) -> list[list[str]]:
    lines = (TWID / name).read_text(encoding="utf-8").splitlines()
    return [line.split("\t") for line in lines[1:] if line.strip()]


@needs_twid
def test_twid_countries_are_read_with_their_properties(twid):
    c = twid.compiled
    assert len(c.types["Country"]) == 89
    libya = props(twid, "libya")
    assert libya["title"] == "Libya"
    assert (libya["stability"], libya["oil"], libya["conflictive"], libya["region"]) == (2, False, True, "middle_east")
    assert props(twid, "united_states")["title"] == "United States"  # name made from the title
    assert props(twid, "united_states")["oil"] is True
    assert props(twid, "czech_republic_slovakia")["title"] == "Czech Republic-Slovakia"
    # Two regions in one cell: a region value of its own, counted in both by in_region().
    assert props(twid, "russia_country")["region"] == "europe_asia"
    assert props(twid, "russia_country")["title"] == "Russia"  # renamed: `russia` is a seat
    assert props(twid, "turkey")["region"] == "europe_middle_east"
    assert c.rt.display("europe_asia") == "Europe-Asia"
    # An optional text column: empty is none.
    assert props(twid, "honduras")["comment"] == "Maybe 1"
    assert props(twid, "france")["comment"] is None
    regions = {props(twid, n)["region"] for n in c.types["Country"]}
    assert len(regions) == 8


@needs_twid
def test_twid_adjacency_gives_132_symmetric_links(twid):
    links = twid.compiled.rt.links
    pairs = {frozenset((a, b)) for a, near in links.items() for b in near}
    assert len(pairs) == 132
    assert all(a in links[b] for a, near in links.items() for b in near)
    assert set(links["russia_country"]) == {
        "finland",
        "poland",
        "ukraine",
        "caucasus_states",
        "stan_states",
        "china_country",
    }
    assert set(links["libya"]) == {"tunisia", "egypt"}
    # The countries' own `adjacent(;)` column, read as a `list Country`, agrees.
    listed = twid.compiled.fields["listed_neighbours"]
    assert all(set(listed[c]) == set(links[c]) for c in twid.compiled.types["Country"])


@needs_twid
def test_twid_cards_are_read_with_their_texts_verbatim(twid):
    c = twid.compiled
    assert len(c.types["TwidCard"]) == 91
    rows = tsv_rows("cards.tsv")
    by_title = {c.rt.titles[n]: n for n in c.types["TwidCard"]}
    for row in rows:
        card = props(twid, by_title[row[1].strip()])
        assert card["text"] == row[9].strip()
        assert card["number"] == row[0]
        assert card["ops"] == (None if row[4] == "P" else int(row[4]))
    punctuation = [n for n in c.types["TwidCard"] if "Punctuation" in props(twid, n)["types"]]
    assert len(punctuation) == 7 and all(props(twid, n)["ops"] is None for n in punctuation)
    angola = props(twid, "angolan_civil_war")
    assert (angola["ops"], angola["block"], angola["types"], angola["subtype"]) == (2, "Both", ("Military",), "War")
    assert angola["removed_after_text"] is True and angola["epoch"] == "pre"
    assert props(twid, "_9_11_attacks")["title"] == "9/11 attacks"  # a name cannot start with a digit
    assert props(twid, "hugo_chavez")["title"] == "Hugo Chávez"
    assert props(twid, "conspiracy_theory")["epoch"] == "pre"  # "pre (promo)", read as pre
    assert props(twid, "madrid_bombings")["number"] == "P3"
    assert props(twid, "europe_scoring")["title"] == "Europe"


@needs_twid
def test_a_card_block_adds_an_effect_to_its_row(twid):
    state = twid.start(players=2, seed=1)
    text = props(twid, "angolan_civil_war")["text"]
    assert twid.narrate(state)[:2] == [f"Angolan civil war (2 ops): {text}", "21 countries count in Europe"]
    assert ("angolan_civil_war", "effect") in twid.compiled.slots


@needs_twid
def test_the_rules_hash_covers_the_tables(tmp_path):
    path = twid_folder(tmp_path)
    before = load_game(path).rules_hash
    cards = tmp_path / "cards.tsv"
    cards.write_text(
        cards.read_text(encoding="utf-8").replace(
            "Angolan civil war\tpre\t1975-2002\t2", "Angolan civil war\tpre\t1975-2002\t3"
        )
    )
    after = load_game(path)
    assert props(after, "angolan_civil_war")["ops"] == 3
    assert after.rules_hash != before


@needs_twid
def test_a_variant_removes_rows_and_replaces_a_card_block(tmp_path):
    game = (
        TWID_GAME
        + """
variant solo "Solo: fewer cards" {
    remove card [boris_yeltsin, black_monday, libya]
    procedure count_cards() {
        rule "Solo"
        log "{count(members(TwidCard))} cards"
    }
}
variant loud "Angola, louder" {
    replace card angolan_civil_war {
        effect { log "ANGOLA: {self.title}" }
    }
}
"""
    )
    path = twid_folder(tmp_path, game)
    solo = load_game(path, variants=["solo"])
    assert len(solo.compiled.types["TwidCard"]) == 89
    assert "libya" not in solo.compiled.types["Country"]
    assert "libya" not in solo.compiled.rt.links["egypt"]  # its links go with it
    assert "libya" not in solo.compiled.fields["listed_neighbours"]["tunisia"]
    loud = load_game(path, variants=["loud"])
    assert loud.narrate(loud.start(players=2, seed=1))[0] == "ANGOLA: Angolan civil war"


# ---- a small table, and every kind of mistake ----------------------------------------------------
GAME = """
game t { players 2..2 seats [us, eu] }
enum Region { europe "Europe", asia "Asia", middle_east "Middle East" }
entity Country {
    region: Region
    stability: int
    oil: bool
    neighbours: list Country
    note: str?
}
table Country from "countries.tsv" {
    named by name
    region
    stability
    oil
    neighbours
    note
}
procedure play() {
    rule "Play"
    game over []
}
"""
HEADER = "# name\tregion\tstability\toil\tneighbours\tnote\n"
ROWS = (
    "France\tEurope\t3\tno\tGermany\t\n"
    "Germany\tEurope\t4\tno\tFrance;Iran\t\n"
    "Iran\tMiddle East\t2\tyes\tGermany\tsee 9.2\n"
)


def small(tmp_path: Path, table: str | bytes | None = None, game: str = GAME, **files) -> Path:
    files = {"t.game": game, "countries.tsv": HEADER + ROWS if table is None else table, **files}
    return write(tmp_path, files)


def test_a_small_table_loads(tmp_path):
    game = load_game(small(tmp_path))
    assert game.compiled.types["Country"] == ("france", "germany", "iran")
    assert props(game, "germany")["neighbours"] == ("france", "iran")
    assert props(game, "iran")["region"] == "middle_east"
    assert props(game, "iran")["note"] == "see 9.2" and props(game, "france")["note"] is None


BAD_CELLS = [
    # id, the rows after the header, "line:col", fragment of the message, fragment of the hint
    (
        "int",
        "France\tEurope\tthree\tno\t\t\n",
        "2:15",
        "Country.stability: expected a whole number, not 'three'",
        "with",
    ),
    ("huge-int", "France\tEurope\t" + "9" * 40 + "\tno\t\t\n", "2:15", "is past the limit of", None),
    ("bool", "France\tEurope\t3\tmaybe\t\t\n", "2:17", "Country.oil: expected yes or no, not 'maybe'", "yes, no"),
    ("enum", "France\tEurpoe\t3\tno\t\t\n", "2:8", "unknown Region 'Eurpoe'", "did you mean 'Europe'?"),
    ("component", "France\tEurope\t3\tno\tFrance;Frnace\t\n", "2:27", "unknown Country 'Frnace'", "'France'"),
    (
        "empty-required",
        "France\tEurope\t\tno\t\t\n",
        "2:15",
        "empty cell: Country.stability needs a whole number",
        "int?",
    ),
    ("too-many-cells", "France\tEurope\t3\tno\t\t\textra\n", "2:22", "this row has 7 cells; the header names 6", None),
    ("too-few-cells", "France\tEurope\t3\tno\n", "2:19", "this row has 4 cells; the header names 6", "a tab"),
    (
        "duplicate-name",
        "France\tEurope\t3\tno\t\t\nfrance\tEurope\t3\tno\t\t\n",
        "3:1",
        "two rows are named 'france'",
        "2:1",
    ),
    ("no-name", "\tEurope\t3\tno\t\t\n", "2:1", "this row has no name", None),
    ("no-name-made", "???\tEurope\t3\tno\t\t\n", "2:1", "cannot make a name from '???'", 'with "???" as'),
    ("long-title", "A" * 300 + "\tEurope\t3\tno\t\t\n", "2:1", "a title of 300 characters; the limit is 200", None),
]


@pytest.mark.parametrize(
    ("rows", "where", "message", "hint"), [c[1:] for c in BAD_CELLS], ids=[c[0] for c in BAD_CELLS]
)
def test_a_bad_cell_is_reported_at_its_line_and_column(tmp_path, rows, where, message, hint):
    err = error_of(tmp_path, {"t.game": GAME, "countries.tsv": HEADER + rows})
    first = err.splitlines()[0]
    assert first.startswith(f"<dir>/countries.tsv:{where}: error: "), err
    assert message in first, err
    if hint:
        assert hint in err.split("hint: ", 1)[1].splitlines()[0], err


def test_every_bad_cell_is_reported_at_once_with_its_source_line(tmp_path):
    err = error_of(
        tmp_path, {"t.game": GAME, "countries.tsv": HEADER + "France\tEurope\tx\tno\t\t\nIran\tAsia\t2\tperhaps\t\t\n"}
    )
    assert "countries.tsv:2:15: error: Country.stability" in err
    assert "countries.tsv:3:13: error: Country.oil" in err
    assert "    France Europe x no  \n" + " " * 18 + "^" in err  # tabs shown as one space: the caret fits


def test_a_cell_far_along_a_long_line_is_shown_in_a_window(tmp_path):
    note = "a" * 300
    err = error_of(tmp_path, {"t.game": GAME, "countries.tsv": HEADER + f"France\tEurope\t3\tno\tSpain\t{note}\n"})
    assert "unknown Country 'Spain'" in err and len(max(err.splitlines(), key=len)) < 140


@pytest.mark.parametrize(
    ("table", "where", "message"),
    [
        ("", "1:1", "the table is empty: it has no header line"),
        ("\n\n# only a comment?\n", "3:3", "column 'only_a_comment' is not read by `table Country`"),
        ("# name\tregion\tstability\toil\tneighbours\tnote\tname\n", "1:45", "two columns are named 'name'"),
        ("# name\tregion\t\tstability\toil\tneighbours\tnote\n", "1:15", "column 3 has no name"),
        (HEADER.replace("note", "notes") + ROWS, "1:40", "column 'notes' is not read by `table Country`"),
    ],
    ids=["empty-file", "header-only-a-comment", "duplicate-column", "unnamed-column", "unread-column"],
)
def test_a_header_that_does_not_match_is_reported(tmp_path, table, where, message):
    err = error_of(tmp_path, {"t.game": GAME, "countries.tsv": table})
    assert f"<dir>/countries.tsv:{where}: error: {message}" in err, err


def test_a_name_taken_by_a_seat_or_enum_member_asks_for_a_rename(tmp_path):
    game = GAME.replace("seats [us, eu]", "seats [us, eu, iran]")
    err = error_of(tmp_path, {"t.game": game, "countries.tsv": HEADER + ROWS})
    assert err.startswith(
        "<dir>/countries.tsv:4:1: error: the row 'Iran' would be named 'iran', which already names a player"
    )
    assert 'hint: name it another way: named by name with "Iran" as iran_country' in err
    renamed = game.replace("    named by name\n", '    named by name with "Iran" as iran_country\n')
    loaded = load_game(write(tmp_path, {"t.game": renamed}))
    assert loaded.compiled.types["Country"] == ("france", "germany", "iran_country")
    assert props(loaded, "germany")["neighbours"] == ("france", "iran_country")  # cells still name it by title


def test_a_header_with_no_rows_is_a_table_of_no_components(tmp_path):
    game = load_game(small(tmp_path, HEADER))
    assert game.compiled.types["Country"] == ()


def test_an_unread_column_hint_says_how_to_read_or_ignore_it(tmp_path):
    err = error_of(tmp_path, {"t.game": GAME, "countries.tsv": HEADER.replace("note", "comment") + ROWS})
    assert "<dir>/countries.tsv:1:40: error: column 'comment' is not read" in err
    assert "write `ignore comment` in the table" in err
    # and the .game file's `note` line names a column the file no longer has
    assert "<dir>/t.game:16:5: error: countries.tsv has no column 'note'" in err


@pytest.mark.parametrize(
    ("line", "replacement", "where", "message", "hint"),
    [
        (
            "    stability\n",
            "    stability = stabilty\n",
            "13:5",
            "countries.tsv has no column 'stabilty'",
            "'stability'",
        ),
        ("    named by name\n", "    named by nme\n", "11:5", "countries.tsv has no column 'nme'", "'name'"),
        ("    note\n", "    note\n    ignore notes\n", "17:5", "countries.tsv has no column 'notes'", "'note'"),
        ("    oil\n", "    oil\n    oil\n", "15:5", "Country.oil is read twice", None),
        ("    oil\n", "    oli = oil\n", "14:5", "Country has no property 'oli'", "'oil'"),
        (
            "    stability\n",
            '    stability with "P" as none\n',
            "13:27",
            'Country.stability is int: "P" cannot be read',
            "int?",
        ),
        ("    region\n", '    region separated by ","\n', "12:5", "`separated by` splits a list", None),
        ("table Country", "table Contry", "10:1", "a table fills an entity, and 'Contry' is not one", "'Country'"),
        ("    named by name\n", "", "10:1", "table Country says no `named by COLUMN`", None),
    ],
    ids=["column", "named-by", "ignore", "twice", "property", "reading-type", "separator", "entity", "no-named-by"],
)
def test_a_bad_declaration_is_reported_at_the_game_line(tmp_path, line, replacement, where, message, hint):
    assert line in GAME
    game = GAME.replace(line, replacement, 1)
    if "no-named-by" in message or "named by COLUMN" in message:
        game = game.replace("    note\n", "    note\n    ignore name\n")
    err = error_of(tmp_path, {"t.game": game, "countries.tsv": HEADER + ROWS})
    assert f"<dir>/t.game:{where}: error: {message}" in err, err
    if hint:
        assert hint in err, err


def test_a_table_file_that_is_not_utf8_is_reported_at_the_byte(tmp_path):
    data = (HEADER + "France\tEurope\t3\tno\t\t\nIran\tMiddle East\t2\tyes\t\tcaf").encode() + b"\xe9\n"
    err = error_of(tmp_path, {"t.game": GAME, "countries.tsv": data})
    assert err.startswith("<dir>/countries.tsv:3:28: error: cannot read countries.tsv: byte 0xe9 is not UTF-8 text")
    assert "hint: save the file as UTF-8" in err


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/etc/passwd", "table leaves the game's folder: '/etc/passwd'"),
        ("../../../../etc/hosts.tsv", "table leaves the game's folder"),
        ("outside.tsv", "table leaves the game's folder: 'outside.tsv'"),  # a link pointing out
        ("*.tsv", "table needs one file name"),
        ("nowhere.tsv", "table finds no file: nowhere.tsv"),
        ("countries.txt", "a table is a .tsv, .csv or .toml file, not 'countries.txt'"),
        ("folder.tsv", "this is a folder, not a file"),
    ],
)
def test_a_table_stays_inside_the_games_folder(tmp_path, path, message):
    (tmp_path / "folder.tsv").mkdir()
    (tmp_path / "countries.txt").write_text(HEADER)
    os.symlink("/etc/hostname", tmp_path / "outside.tsv")
    err = error_of(tmp_path, {"t.game": GAME.replace('"countries.tsv"', f'"{path}"')})
    assert err.startswith("<dir>/t.game:10:1: error: "), err
    assert message in err


def test_a_table_below_the_games_folder_is_read(tmp_path):
    game = small(tmp_path, game=GAME.replace('"countries.tsv"', '"data/countries.tsv"'))
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "countries.tsv").write_text(HEADER + ROWS)
    assert len(load_game(game).compiled.types["Country"]) == 3


def test_gamedef_check_reports_a_bad_table_without_a_traceback(tmp_path, capsys):
    path = small(tmp_path, HEADER + "France\tEurope\tx\tno\t\t\n")
    assert main(["check", str(path)]) == 2
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    assert "countries.tsv:2:15: error: Country.stability: expected a whole number" in out.err


# ---- readings, optional values, lists, names ------------------------------------------------------------
def test_readings_empty_cells_and_separators(tmp_path):
    game = """
    game t { players 2..2 seats [us, eu] }
    enum Region { europe "Europe", asia "Asia" }
    entity Country { region: Region?  ops: int?  flag: bool  seats: list player  areas: list Region }
    table Country from "c.csv" {
        named by id  titled by title
        region
        ops with "P" as none
        flag = marked with "*" as true, "" as false
        seats separated by " "
        areas separated by "/"
        empty "-"
    }
    procedure play() {
        rule "Play"
        game over []
    }
    """
    table = (
        "id,title,region,ops,marked,seats,areas\n"
        "# a comment line\n"
        'fr,"France, the Republic",EUROPE,P,*,US   EU,europe/Asia/\n'
        "jp,Japan,-,-,,,-\n"
        "\n"
    )
    loaded = load_game(write(tmp_path, {"t.game": game, "c.csv": table}))
    fr, jp = props(loaded, "fr"), props(loaded, "jp")
    assert fr["title"] == "France, the Republic" and jp["title"] == "Japan"
    assert (fr["region"], fr["ops"], fr["flag"], fr["seats"], fr["areas"]) == (
        "europe",
        None,
        True,
        ("us", "eu"),
        ("europe", "asia"),
    )
    assert (jp["region"], jp["ops"], jp["flag"], jp["seats"], jp["areas"]) == (None, None, False, (), ())


def test_csv_quotes_and_a_cell_over_two_lines(tmp_path):
    game = GAME.replace('"countries.tsv"', '"countries.csv"')
    table = (
        "name,region,stability,oil,neighbours,note\n"
        'France,Europe,3,no,,"says ""hello""\nover two lines"\n'
        "Iran,Asia,x,no,,\n"
    )
    err = error_of(tmp_path, {"t.game": game, "countries.csv": table})
    assert err.startswith("<dir>/countries.csv:4:11: error: Country.stability: expected a whole number"), err
    ok = load_game(small(tmp_path, game=game, **{"countries.csv": table.replace(",x,", ",2,")}))
    assert props(ok, "france")["note"] == 'says "hello"\nover two lines'


def test_csv_an_unclosed_quote_is_reported_where_it_opens(tmp_path):
    game = GAME.replace('"countries.tsv"', '"countries.csv"')
    err = error_of(
        tmp_path, {"t.game": game, "countries.csv": 'name,region,stability,oil,neighbours,note\nFrance,"Europe,3\n'}
    )
    assert err.startswith("<dir>/countries.csv:2:8: error: this quote is never closed"), err


TOML_GAME = GAME.replace('"countries.tsv"', '"countries.toml"')
TOML = """
# the same countries, one [[country]] section a row
[[country]]
name = "France"
region = "Europe"
stability = 3
oil = false
neighbours = ["Germany"]

[[country]]
name = "Germany"
region = "europe"
stability = 4
oil = false
neighbours = "France;Iran"
note = "a list may also be one text"

[[country]]
name = "Iran"
region = "Middle East"
stability = 2
oil = true
neighbours = []
"""


def test_a_toml_array_of_tables_is_a_table(tmp_path):
    loaded = load_game(small(tmp_path, game=TOML_GAME, **{"countries.toml": TOML}))
    assert loaded.compiled.types["Country"] == ("france", "germany", "iran")
    assert props(loaded, "germany")["neighbours"] == ("france", "iran")
    assert props(loaded, "iran")["oil"] is True and props(loaded, "iran")["note"] is None


@pytest.mark.parametrize(
    ("old", "new", "where", "message"),
    [
        ("stability = 4", "stability = 4.5", "13:13", "Country.stability: expected a whole number, not a fraction"),
        ("stability = 4", 'stability = "four"', "13:13", "expected a whole number, not 'four'"),
        ("stability = 4", "stability = 99999999999999999999", "13:13", "past the limit"),
        ("stability = 4", "stability = 9223372036854775808", "13:13", "past the limit"),
        ("oil = true", 'oil = "yes"', "22:7", None),
        ("oil = true", "oil = 1", "22:7", "Country.oil: expected true or false, not a number"),
        ("stability = 4\n", "", "10:1", "empty cell: Country.stability"),
        ('region = "europe"', 'region = "Europa"', "12:10", "unknown Region 'Europa'"),
        ('region = "europe"', "region = [", "13:1", "not valid TOML"),
        ('[[country]]\nname = "Iran"', '[[nation]]\nname = "Iran"', "1:1", "several arrays of tables: country, nation"),
        ('name = "Iran"', 'name = ["Iran"]', "19:8", "this row's 'name' cell is not a text"),
    ],
)
def test_a_bad_toml_value_is_reported_at_its_line(tmp_path, old, new, where, message):
    assert old in TOML
    files = {"t.game": TOML_GAME, "countries.toml": TOML.replace(old, new, 1)}
    if message is None:
        assert props(load_game(write(tmp_path, files)), "iran")["oil"] is True
        return
    err = error_of(tmp_path, files)
    assert err.startswith(f"<dir>/countries.toml:{where}: error: "), err
    assert message in err.splitlines()[0], err


def test_links_name_nodes_by_name_or_title(tmp_path):
    game = GAME + 'links from "links.csv"\n'
    ok = load_game(small(tmp_path, game=game, **{"links.csv": "# a, b\nfrance,GERMANY\nMiddle East,asia\n"}))
    assert ok.compiled.rt.links["france"] == ("germany",)
    assert ok.compiled.rt.links["middle_east"] == ("asia",)  # enum members are nodes too
    err = error_of(tmp_path, {"t.game": game, "links.csv": "France,Germany\nFrance,Spian\nIran\n"})
    assert "<dir>/links.csv:3:5: error: this row has 1 cells; a link joins two nodes" in err


def test_links_from_toml_name_their_keys(tmp_path):
    game = GAME + 'links from "links.toml" between a and b\n'
    toml = '[[link]]\na = "France"\nb = "Iran"\n\n[[link]]\na = "Iran"\n'
    err = error_of(tmp_path, {"t.game": game, "links.toml": toml, "countries.tsv": HEADER + ROWS})
    assert err.startswith("<dir>/links.toml:5:1: error: this row has no 'b'"), err
    err = error_of(tmp_path, {"t.game": GAME + 'links from "links.toml"\n', "links.toml": toml})
    assert "<dir>/t.game:22:1: error: links from a TOML file name their two keys" in err


def test_links_with_named_columns_and_bad_nodes(tmp_path):
    game = GAME + 'links from "links.tsv" between zone_a and zone_b\n'
    table = "# zone_a\tzone_b\tkind\nFrance\tGermany\tland\nFrance\tSpian\tland\nIran\tiran\tsea\n"
    err = error_of(tmp_path, {"t.game": game, "links.tsv": table, "countries.tsv": HEADER + ROWS})
    assert "<dir>/links.tsv:3:8: error: unknown node 'Spian'" in err
    assert "<dir>/links.tsv:4:6: error: this row links 'iran' to itself" in err
    err = error_of(tmp_path, {"t.game": game.replace("zone_b", "zone_c"), "links.tsv": table})
    assert "<dir>/t.game:22:1: error: links.tsv has no column 'zone_c'" in err and "did you mean 'zone_b'?" in err


def test_slug_and_column_names():
    assert slug("United States") == "united_states"
    assert slug("Czech Republic/Slovakia") == "czech_republic_slovakia"
    assert slug("South-East Africa States") == "south_east_africa_states"
    assert slug("Hugo Chávez") == "hugo_chavez"
    assert slug("9/11 attacks") == "_9_11_attacks"
    assert slug("  ??  ") == ""
    assert column_key("ops(P=punctuation)") == "ops"
    assert column_key("adjacent(;)") == "adjacent"
    assert column_key("Starting Influence") == "starting_influence"


# ---- cards that extend rows ------------------------------------------------------------------------------
CARDS_GAME = """
game t { players 2..2 seats [us, eu] }
entity Card { ops: int  note: str? }
table Card from "cards.tsv" {
    named by title
    ops
    text
}
card black_monday {
    note "a crash"
    effect { log "{self.title}: {self.text} ({self.note})" }
}
procedure play() {
    rule "Play"
    perform black_monday.effect()
    game over []
}
"""
CARDS = (
    "# title\tops\ttext\n"
    "Black Monday\t2\tUS and EU lose supremacy.\n"
    "Boris Yeltsin\t3\tUS gains 1 influence in Russia.\n"
)


def test_a_card_extends_its_row_with_slots_and_unread_properties(tmp_path):
    game = load_game(write(tmp_path, {"t.game": CARDS_GAME, "cards.tsv": CARDS}))
    state = game.start(players=2, seed=1)
    assert game.narrate(state)[0] == "Black Monday: US and EU lose supremacy. (a crash)"
    assert props(game, "boris_yeltsin")["note"] is None


@pytest.mark.parametrize(
    ("old", "new", "where", "message"),
    [
        (
            "card black_monday {",
            "card black_monday : Country {",
            "8:1",
            "card 'black_monday' is a row of cards.tsv:2, a Card, not a Country",
        ),
        (
            "card black_monday {",
            'card black_monday "Lundi noir" {',
            "8:1",
            "card 'black_monday' takes its title from cards.tsv:2",
        ),
        (
            'note "a crash"',
            'text "typed again"',
            "8:1",
            "card 'black_monday' takes its text from cards.tsv:2 (column text)",
        ),
        ('note "a crash"', "ops 4", "9:5", "Card.ops of 'black_monday' is read from cards.tsv:2 (column ops)"),
        (
            'card black_monday {\n    note "a crash"',
            "card black_mondy {",
            "8:1",
            "card 'black_mondy' is not a row of any table",
        ),
    ],
    ids=["kind", "title", "text", "property", "misspelt"],
)
def test_a_card_that_contradicts_its_row_is_refused(tmp_path, old, new, where, message):
    assert old in CARDS_GAME
    err = error_of(tmp_path, {"t.game": CARDS_GAME.replace(old, new, 1), "cards.tsv": CARDS})
    assert f"<dir>/t.game:{where}: error: {message}" in err, err


def test_a_card_of_its_own_kind_is_still_a_new_card(tmp_path):
    game = CARDS_GAME.replace("procedure play", "card black_mondays : Card { ops 1 }\nprocedure play")
    loaded = load_game(write(tmp_path, {"t.game": game, "cards.tsv": CARDS}))
    assert loaded.compiled.types["Card"] == ("black_monday", "boris_yeltsin", "black_mondays")


def test_variants_replace_and_remove_tables(tmp_path):
    game = (
        CARDS_GAME
        + """
variant reprint {
    replace table Card from "reprint.tsv" {
        named by title
        ops
        text
    }
}
variant cardless {
    remove table Card
    remove card black_monday
    replace procedure play() {
        rule "Play"
        game over []
    }
}
variant typo {
    remove card black_mnday
}
"""
    )
    path = write(tmp_path, {"t.game": game, "cards.tsv": CARDS, "reprint.tsv": CARDS.replace("\t2\t", "\t5\t")})
    assert props(load_game(path, variants=["reprint"]), "black_monday")["ops"] == 5
    assert load_game(path, variants=["cardless"]).compiled.types.get("Card", ()) == ()
    with pytest.raises(GameDefError, match="variant removes unknown card 'black_mnday'") as info:
        load_game(path, variants=["typo"])
    assert "did you mean 'black_monday'?" in info.value.render()


# ---- any bytes: a diagnostic, never a traceback ------------------------------------------------------------
ALPHABET = [
    "\t",
    ",",
    "\n",
    '"',
    "#",
    ";",
    " ",
    "France",
    "Europe",
    "Asia",
    "3",
    "-",
    "yes",
    "x",
    "é",
    "[[country]]",
    "=",
    "(",
    "\r",
]


@pytest.mark.parametrize("suffix", [".tsv", ".csv", ".toml"])
def test_random_table_contents_give_a_diagnostic_or_a_game(tmp_path, suffix):
    rng = random.Random(suffix)
    game = GAME.replace('"countries.tsv"', f'"countries{suffix}"')
    (tmp_path / "t.game").write_text(game)
    for _ in range(150):
        pieces = [rng.choice(ALPHABET) for _ in range(rng.randint(0, 60))]
        text = (HEADER if rng.random() < 0.5 and suffix != ".toml" else "") + "".join(pieces)
        data = text.encode()
        if rng.random() < 0.1:
            data += bytes([rng.randint(128, 255)])
        (tmp_path / f"countries{suffix}").write_bytes(data)
        try:
            load_game(tmp_path / "t.game")
        except GameDefError as err:
            assert err.diagnostics and err.render()


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("countries.tsv", HEADER + "France\tEurope\t3\tno\t\t\n" * 20_001, "the table has more than 20,000 rows"),
        ("countries.tsv", HEADER + "x" + "\t" * 300_000, "this line has more than 200,000 cells"),
        ("countries.csv", "name," + "," * 300_000, "this row has more than 200,000 cells"),
        (
            "countries.csv",
            ",".join(f"c{i}" for i in range(20)) + "\n" + ("x" + "," * 19 + "\n") * 11_000,
            "200,000 cells",
        ),
        ("countries.toml", "a = " + "[" * 100_000 + "]" * 100_000, "countries.toml:1:1: error: values nested too"),
        ("countries.toml", "[[country]]\nname = 'x'\n" * 20_001, "the table has more than 20,000 rows"),
        ("countries.toml", "# a\n[[country]]\nname" + ".x" * 20_000 + " = 1\n", "toml:3:1: error: values nested"),
        ("countries.toml", "[[country]] # it's\nname = 'x'\n[a" + ".x" * 20_000 + "]\n", "toml:3:1: error: values"),
    ],
    ids=["rows", "tabs", "commas", "cells", "toml-nesting", "toml-rows", "toml-dotted-key", "toml-dotted-table"],
)
def test_a_table_past_the_limits_is_refused(tmp_path, name, content, message):
    game = GAME.replace('"countries.tsv"', f'"{name}"')
    started = time.perf_counter()
    err = error_of(tmp_path, {"t.game": game, name: content})
    assert message in err.splitlines()[0], err[:500]
    assert time.perf_counter() - started < 10


def test_only_the_first_bad_cells_are_shown(tmp_path):
    rows = "".join(f"C{i}\tEurope\tx\tno\t\t\n" for i in range(200))
    err = error_of(tmp_path, {"t.game": GAME, "countries.tsv": HEADER + rows})
    assert err.count("error: Country.stability: expected a whole number") == 25
    assert "... and 175 more problems in this table" in err


def test_read_sheet_keeps_cell_positions():
    sheet = read_sheet("x.tsv", "\ufeff# a\tb (note)\n\n  one \ttwo\n# comment\nthree\t\n")
    assert list(sheet.columns) == ["a", "b"]
    assert sheet.columns["a"].column == 3
    first, second = sheet.rows
    assert (first.line, first.cells["a"].value, first.cells["a"].column, first.cells["b"].column) == (3, "one", 3, 8)
    assert (second.line, second.cells["b"].value) == (5, "")


def test_read_sheet_skips_lines_of_empty_cells_and_reads_quoted_cells():
    sheet = read_sheet("x.csv", 'a,b\n,,\n  ,\n"1, one",2\n')
    assert [(r.line, r.cells["a"].value, r.cells["a"].column) for r in sheet.rows] == [(4, "1, one", 2)]


# ---- counted items: `US:1 EU:2` ------------------------------------------------------------------
COUNTED = """
game counted { players 2..2 seats [us, eu] }
entity Country { starting: list player }
table Country from "c.tsv" {
    named by name
    starting = influence separated by " " counted by ":"
}
procedure play() {
    rule "Setup"
    log "{germany.starting} | {poland.starting} | {spain.starting}"
    game over []
}
"""


def test_a_counted_list_cell_repeats_each_item_its_count(tmp_path):
    path = write(tmp_path, {"g.game": COUNTED, "c.tsv": "name\tinfluence\nGermany\tUS:1 EU:2\nPoland\t\nSpain\tEU\n"})
    game = load_game(path)
    assert game.narrate(game.start()) == ["us, eu, eu | nothing | eu"]


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        (
            "US:two",
            "c.tsv:2:9: error: Country.starting: 'US:two': the count after ':' must be a whole number of 0 or more",
        ),
        ("US:1 XX:1", "c.tsv:2:14: error: Country.starting: unknown player 'XX'"),
    ],
)
def test_a_bad_counted_item_is_reported_at_its_cell(tmp_path, cell, message):
    rows = f"name\tinfluence\nGermany\t{cell}\nPoland\t\nSpain\tEU\n"
    text = error_of(tmp_path, {"g.game": COUNTED, "c.tsv": rows})
    assert message in text, text


# ---- a cell that names two things ------------------------------------------------------------------
ZONES_GAME = """
game t { players 2..2 seats [a, b] }
enum Country { Greece "Greece", France "France" }
entity Zone { country: Country  next: Zone? }
table Zone from "zones.tsv" {
    named by id
    titled by name
    country
    next
}
links from "links.tsv"
procedure play() {
    rule "Play"
    game over []
}
"""
ZONES = "# id\tname\tcountry\tnext\ngreece\tGreece\tGreece\t\nparis\tParis\tFrance\tgreece\n"


def test_a_link_cell_naming_a_zone_and_an_enum_member_is_an_error(tmp_path):
    # Was a silent wrong link: `GREECE` (and `greece`) named the enum member `Greece`,
    # which took the zone's links.
    files = {"t.game": ZONES_GAME, "zones.tsv": ZONES}
    # the exact name `greece` is the zone; `Greece` is the member's name and the zone's title
    err = error_of(tmp_path, {**files, "links.tsv": "greece\tparis\nGREECE\tParis\nparis\tGreece\n"})
    assert (
        "<dir>/links.tsv:2:1: error: 'GREECE' names 2 different things: "
        'Greece (a member of Country) or greece (a Zone titled "Greece")'
    ) in err
    assert "<dir>/links.tsv:3:7: error: 'Greece' names 2 different things" in err
    assert "hint: write the exact name: 'greece'; Greece has no spelling of its own here" in err
    ok = load_game(write(tmp_path, {**files, "links.tsv": "greece\tparis\nParis\tFrance\n"}))
    assert ok.compiled.rt.links["greece"] == ("paris",)
    assert ok.compiled.rt.links["paris"] == ("greece", "France")
    assert "Greece" not in ok.compiled.rt.links  # the member has no links of the zone's


def test_a_typed_cell_naming_two_components_is_an_error(tmp_path):
    # A name in another case and another row's title: no longer "the name wins".
    zones = "# id\tname\tcountry\tnext\nus\tUSA\tFrance\t\nusa\tUnited States\tFrance\tUsa\n"
    files = {"t.game": ZONES_GAME.replace('links from "links.tsv"\n', ""), "zones.tsv": zones}
    err = error_of(tmp_path, files)
    assert err.startswith(
        "<dir>/zones.tsv:3:26: error: Zone.next: 'Usa' names 2 different things: "
        'us (a Zone titled "USA") or usa (a Zone titled "United States")'
    ), err
    assert "hint: write the exact name: 'us' or 'usa'" in err
    ok = load_game(write(tmp_path, {**files, "zones.tsv": zones.replace("Usa\n", "usa\n")}))
    assert props(ok, "usa")["next"] == "usa"
    ok = load_game(write(tmp_path, {**files, "zones.tsv": zones.replace("Usa\n", "USA\n")}))
    assert props(ok, "usa")["next"] == "us"  # a title written exactly names its row alone


# ---- generate reads table values -------------------------------------------------------------------
ARMIES_GAME = """
game t { players 2..2 seats [a, b] }
enum Nation { germany "Germany", france "France" }
entity ArmyType { nation: Nation  copies: int }
table ArmyType from "armies.tsv" {
    named by label
    nation
    copies = count
}
entity Army { nation: Nation  number: int  type: ArmyType }
generate Army named "{t} {n}" for t in members(ArmyType), n in 1..t.copies {
    nation = t.nation
    number = n
    type = t
}
procedure play() {
    rule "Play"
    game over []
}
"""
ARMIES = "# label\tnation\tcount\nGerman\tGermany\t2\nFrench\tFrance\t1\n"


def test_a_generate_reads_the_values_of_a_table(tmp_path):
    # Was "no component has a property 'copies'": table values were read after generates.
    game = load_game(write(tmp_path, {"t.game": ARMIES_GAME, "armies.tsv": ARMIES}))
    c = game.compiled
    assert c.types["Army"] == ("German 1", "German 2", "French 1")
    # A generated component has a title and a text, as a row and a card do.
    assert props(game, "German 2") == {
        "nation": "germany",
        "number": 2,
        "type": "german",
        "title": "German 2",
        "text": "",
    }


def test_a_table_naming_generated_components_is_read_after_them(tmp_path):
    # A table whose cells name Armies waits for the generate: fine, unless the generate reads it.
    later = ARMIES_GAME.replace(
        "entity Army {",
        "entity Muster { first: Army }\n"
        'table Muster from "muster.tsv" {\n    named by place\n    first\n}\n'
        "entity Army {",
    )
    files = {"t.game": later, "armies.tsv": ARMIES, "muster.tsv": "# place\tfirst\nBerlin\tGerman 2\n"}
    game = load_game(write(tmp_path, files))
    assert props(game, "berlin")["first"] == "German 2"
    cycle = ARMIES_GAME.replace("copies: int }", "copies: int  first: Army? }").replace(
        "    copies = count\n", "    copies = count\n    first\n"
    )
    table = "# label\tnation\tcount\tfirst\nGerman\tGermany\t2\tGerman 1\nFrench\tFrance\t1\t\n"
    err = error_of(tmp_path, {"t.game": cycle, "armies.tsv": table})
    assert err.startswith(
        "<dir>/t.game:11:1: error: this generate reads ArmyType.nation, which table ArmyType (<dir>/t.game:4:1) "
        "gives only after the generates, since its cells name Army components"
    ), err
    assert "hint: a generate cannot read a table whose cells name the components it makes" in err


# ---- named by several columns ----------------------------------------------------------------------
TECH_GAME = """
game t { players 2..2 seats [a, b] }
enum Power { GE "German", FB "Franco-British" }
entity Tech { power: Power  level: int }
table Tech from "technologies.tsv" {
    named by power, tile_id
    power
    level
    ignore name
}
procedure play() {
    rule "Play"
    log "{german_a2} {german_a2.level} {franco_british_a1.power}"
    game over []
}
"""
TECH = (
    "# power\ttile_id\tname\tlevel\nGerman\tA1\tAttack 1\t1\nGerman\tA2\tAttack 2\t2\nFranco-British\tA1\tAttack 1\t1\n"
)


def test_rows_named_by_several_columns(tmp_path):
    game = load_game(write(tmp_path, {"t.game": TECH_GAME, "technologies.tsv": TECH}))
    assert game.compiled.types["Tech"] == ("german_a1", "german_a2", "franco_british_a1")
    assert game.narrate(game.start(players=2)) == ["German A2 2 Franco-British"]
    renamed = TECH_GAME.replace("named by power, tile_id", 'named by power, tile_id with "German A2" as ge_attack_2')
    game = load_game(write(tmp_path, {"t.game": renamed.replace("{german_a2", "{ge_attack_2")}))
    assert game.compiled.types["Tech"] == ("german_a1", "ge_attack_2", "franco_british_a1")


@pytest.mark.parametrize(
    ("named", "table", "where", "message", "hint"),
    [
        (
            "power, tile_id",
            TECH + "German\tA1\tAttack 1\t3\n",
            "technologies.tsv:5:1",
            "two rows are named 'german_a1' ('German A1': power, tile_id give the same title)",
            'the first is at <dir>/technologies.tsv:2:1; rename one: named by power, tile_id with "German A1" as',
        ),
        (
            "power, tile_id",
            TECH + "German\t\tAttack 3\t3\n",
            "technologies.tsv:5:8",
            "this row has no name: its 'tile_id' cell is empty (the rows are named by power, tile_id)",
            "fill it in",
        ),
        ("power, tile", TECH, "t.game:5:5", "technologies.tsv has no column 'tile'", "did you mean 'tile_id'?"),
        ("power, power", TECH, "t.game:5:5", "`named by` reads the column 'power' twice", "name each column once"),
        (
            'power, tile_id with "German A9" as x',
            TECH,
            "t.game:5:5",
            'no row of technologies.tsv is named "German A9"',
            "did you mean 'German A",
        ),
        (
            "power",
            TECH,
            "technologies.tsv:3:1",
            "two rows are named 'german'",
            "or name the rows by more columns",
        ),
    ],
    ids=["duplicate", "empty-cell", "unknown-column", "column-twice", "unknown-rename", "one-column-not-unique"],
)
def test_rows_named_by_several_columns_errors(tmp_path, named, table, where, message, hint):
    game = TECH_GAME.replace("named by power, tile_id", f"named by {named}")
    if named == "power":
        game = game.replace("ignore name", "ignore name, tile_id")
    err = error_of(tmp_path, {"t.game": game, "technologies.tsv": table})
    first = err.splitlines()[0]
    assert first == f"<dir>/{where}: error: {message}", err
    assert hint in err.split("hint: ", 1)[1].splitlines()[0], err
