"""Tests of blokus.sgf: Pentobi's records byte for byte, syntax, setup,
variations, info and comments, and every kind of malformed input."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blokus import Game, Move, sgf

REFERENCE = Path("/work/shared/reference")
if not REFERENCE.exists():  # the reference games travel beside the repository
    REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference"
FILES = sorted(REFERENCE.glob("*/sgf/*.blksgf"))


@functools.cache
def reference_turns(variant_id: str) -> dict[str, list[tuple[int, str]]]:
    """Per game of a variant, Pentobi's (colour index, move or 'pass') per turn."""
    games: dict[str, list[tuple[int, str]]] = {}
    with open(REFERENCE / variant_id / f"{variant_id}.jsonl", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if d["type"] == "pos":
                games.setdefault(d["game"], []).append((d["color_index"], d["move"]))
    return games


# ---------------------------------------------------------------------------
# Pentobi's reference records
# ---------------------------------------------------------------------------


def test_all_reference_files_are_there() -> None:
    assert len(FILES) == 64
    assert {p.parent.parent.name for p in FILES} == {
        "classic", "classic_2", "classic_3", "duo", "junior", "trigon", "trigon_2", "trigon_3"
    }


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_reference_record_round_trips_byte_for_byte(path: Path) -> None:
    data = path.read_bytes()
    rec = sgf.load(path)
    assert rec.variant.id == path.parent.parent.name
    # The tree written back, and the game written anew, are Pentobi's bytes.
    assert sgf.dumps_record(rec).encode("utf-8") == data
    game = rec.game()
    assert sgf.dumps(game).encode("utf-8") == data
    # The replay is Pentobi's game, turn for turn (passes included).
    expected = reference_turns(rec.variant.id)[path.stem]
    assert [(t.color, str(t.move)) for t in game.history] == expected
    assert rec.num_moves == sum(1 for _, m in expected if m != "pass")
    assert game.is_game_over()


def test_partial_games_of_a_reference_record() -> None:
    path = REFERENCE / "classic_3" / "sgf" / "classic_3_s0001.blksgf"
    rec = sgf.load(path)
    moves = rec.moves
    for k in (0, 1, 7, rec.num_moves - 1, rec.num_moves):
        game = Game(rec.variant)
        for turn in moves[:k]:
            assert game.turn == turn.color
            game.push(turn.move)
        got = rec.game(k)
        assert got.move_stack == game.move_stack
        assert got.turn == game.turn
    with pytest.raises(ValueError, match="between 0 and"):
        rec.game(rec.num_moves + 1)
    with pytest.raises(ValueError, match="between 0 and"):
        rec.game(-1)


def test_a_colour_may_move_twice_in_a_row_when_the_other_passed() -> None:
    # duo_s0001 ends with several Purple moves in a row: Orange is blocked.
    text = (REFERENCE / "duo" / "sgf" / "duo_s0001.blksgf").read_text()
    assert ";B[c12]\n;B[m14,n14]\n" in text
    history = sgf.loads(text).game().history
    i = [str(t.move) for t in history].index("c12")
    assert [(t.color, str(t.move)) for t in history[i:i + 3]] == [
        (0, "c12"), (1, "pass"), (0, "m14,n14")
    ]


# ---------------------------------------------------------------------------
# Layer 1: syntax
# ---------------------------------------------------------------------------


def test_parse_tree_keeps_properties_values_and_order() -> None:
    root = sgf.parse_tree(
        "  (;GM[Blokus Duo] ZZ[b][a]  \n XY [1] [2]\n;B[e10] (;W[j5])(;W[k4]C[x]))"
    )
    assert list(root.properties) == ["GM", "ZZ", "XY"]
    assert root.properties["ZZ"] == ["b", "a"]
    assert root.get_all("XY") == ["1", "2"]
    assert root.get("GM") == "Blokus Duo"
    assert root.get("nope") is None
    (b,) = root.children
    assert b.get("B") == "e10" and b.depth == 1
    assert [c.get("W") for c in b.children] == ["j5", "k4"]
    assert b.children[1].comment == "x"
    assert [n.depth for n in root.walk()] == [0, 1, 2, 2]
    assert root.main_line() == [root, b, b.children[0]]
    assert root.line == 1 and b.line == 3


def test_escapes_soft_line_breaks_and_line_endings() -> None:
    root = sgf.parse_tree("(;C[a\\]b\\\\c\\d]N[one\\\r\ntwo\r\nthree\rfour]GN[x\\\ny])")
    assert root.get("C") == "a]b\\cd"
    assert root.get("N") == "onetwo\nthree\nfour"
    assert root.get("GN") == "xy"


def test_writing_escapes_like_pentobi() -> None:
    root = sgf.Node({"GM": "Blokus Duo", "C": "a]b\\c\td\r\ne\rf"})
    text = sgf.write_tree(root)
    assert text == "(\n;GM[Blokus Duo]C[a\\]b\\\\c d\ne\nf]\n)\n"
    assert sgf.parse_tree(text).get("C") == "a]b\\c d\ne\nf"


def test_utf8_bytes_and_bom() -> None:
    text = "(;GM[Blokus Duo]PB[Jürgen 山田]C[é])"
    rec = sgf.loads(("\ufeff" + text).encode("utf-8"))
    assert rec.info["PB"] == "Jürgen 山田"
    assert rec.comments == ["é"]
    assert sgf.loads(text).root.properties == rec.root.properties


def test_node_api_checks_ids_and_values() -> None:
    node = sgf.Node()
    node.set("PB", "x")
    node.set("AB", ["e10", "a1"])
    node.set("PB", "y")
    assert list(node.properties) == ["PB", "AB"] and node.get("PB") == "y"
    assert "AB" in node and node.remove("AB") and "AB" not in node
    assert not node.remove("AB")
    node.comment = "hello"
    assert node.comment == "hello"
    node.comment = None
    assert "C" not in node
    with pytest.raises(ValueError, match="not an SGF property id"):
        node.set("P B", "x")
    with pytest.raises(ValueError, match="at least one value"):
        node.set("PB", [])
    with pytest.raises(TypeError, match="not a string"):
        node.set("PB", [3])  # type: ignore[list-item]
    node.properties["XX"] = []
    with pytest.raises(ValueError, match="XX has no value"):
        sgf.write_tree(node)


def test_deep_trees_need_no_recursion() -> None:
    depth = 5000
    text = "(;GM[Blokus Duo]" + "(;C[x]" * depth + ")" * (depth + 1)
    root = sgf.parse_tree(text)
    assert len(root.main_line()) == depth + 1
    assert sgf.parse_tree(sgf.write_tree(root)).main_line()[-1].depth == depth
    with pytest.raises(sgf.SgfError, match="not closed"):
        sgf.parse_tree("(;GM[Blokus Duo]" + "(;C[x]" * depth)


# Random text survives a round trip: escaping, brackets, backslashes, line
# breaks.  Writing turns CR LF / CR into LF and tab / FF / VT into spaces.
TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=60)


def normalized(value: str) -> str:
    value = value.replace("\r\n", "\n").replace("\r", "\n")
    return value.translate(str.maketrans("\t\f\v", "   "))


@settings(max_examples=300, deadline=None)
@given(comment=TEXT, name=TEXT, other=st.lists(TEXT, min_size=1, max_size=3))
def test_text_values_round_trip(comment: str, name: str, other: list[str]) -> None:
    root = sgf.Node({"GM": "Blokus Duo", "PB": name, "XQ": other})
    root.comment = comment
    child = root.new_child({"B": "e10"})
    child.comment = comment
    text = sgf.write_tree(root)
    for data in (text, text.encode("utf-8")):
        back = sgf.loads(data)
        assert back.info["PB"] == normalized(name)
        assert back.root.get_all("XQ") == [normalized(v) for v in other]
        assert back.comments == [normalized(comment) or None, normalized(comment) or None]
        assert sgf.dumps_record(back) == text
    assert child.get("B") == "e10"


# ---------------------------------------------------------------------------
# Layer 2 and 3: moves, setup, info, variations
# ---------------------------------------------------------------------------


def test_new_record_layout_info_and_player_names() -> None:
    game = Game("classic")
    game.push("a20")
    game.push("t20")
    text = sgf.dumps(game, info={"DT": "2024-05-01", "EV": "Club"}, seating=["A", "B", "C", ""])
    assert text == (
        "(\n;GM[Blokus]P1[A]P2[B]P3[C]DT[2024-05-01]EV[Club]\n;1[a20]\n;2[t20]\n)\n"
    )
    rec = sgf.loads(text)
    assert rec.info == {"P1": "A", "P2": "B", "P3": "C", "DT": "2024-05-01", "EV": "Club"}
    assert [rec.player_name(c) for c in range(4)] == ["A", "B", "C", None]
    two = Game("classic_2")
    rec2 = sgf.record_of(two, seating=["Ann", "Bob"])
    assert rec2.info == {"PB": "Ann", "PW": "Bob"}
    assert [rec2.player_name(c) for c in range(4)] == ["Ann", "Bob", "Ann", "Bob"]
    with pytest.raises(ValueError, match="2 player names for 4 seats"):
        sgf.dumps(game, seating=["x", "y"])
    with pytest.raises(ValueError, match="comes from the game"):
        sgf.dumps(game, info={"AB": "a1"})
    with pytest.raises(ValueError, match="both as a player name"):
        sgf.dumps(game, info={"P1": "z"}, seating=["A", "B", "C", "D"])


def test_comments_and_unknown_properties_survive_editing() -> None:
    path = REFERENCE / "trigon_3" / "sgf" / "trigon_3_s0002.blksgf"
    rec = sgf.load(path)
    rec.root.set("ZZ", ["keep", "me"])
    rec.root.set("PB", "Ann")
    third = rec.main_line()[3]
    third.comment = "a [comment]\nover two lines \\o/"
    third.set("XX", "unknown")
    back = sgf.loads(sgf.dumps_record(rec))
    assert list(back.root.properties) == ["GM", "ZZ", "PB"]
    assert back.root.get_all("ZZ") == ["keep", "me"]
    assert back.comments[3] == "a [comment]\nover two lines \\o/"
    assert back.main_line()[3].get("XX") == "unknown"
    assert back.comments.count(None) == len(back.comments) - 1
    assert sgf.dumps_record(back) == sgf.dumps_record(rec)
    assert back.game().move_stack == rec.game().move_stack


def test_variations_layout_and_replay() -> None:
    game = Game("duo")
    game.push("e10,d11,e11,f11,e12")
    rec = sgf.record_of(game)
    first = rec.main_line()[1]
    main = first.new_child({"W": "j5"})
    main.new_child({"B": "c9,d9"})
    first.new_child({"W": "i5,j5", "C": "or this"})
    text = sgf.dumps_record(rec)
    assert text == (
        "(\n;GM[Blokus Duo]\n;B[e10,d11,e11,f11,e12]\n"
        "(\n;W[j5]\n;B[c9,d9]\n)\n(\n;W[i5,j5]C[or this]\n)\n)\n"
    )
    back = sgf.loads(text)
    assert back.num_moves == 3
    assert [len(n.children) for n in back.main_line()] == [1, 2, 1, 0]
    assert str(back.game().peek()) == "c9,d9"
    assert sgf.dumps_record(back) == text


def test_illegal_move_in_a_variation_is_an_error() -> None:
    text = "(\n;GM[Blokus Duo]\n;B[e10]\n(\n;W[j5]\n)\n(\n;W[a1]\n)\n)\n"
    with pytest.raises(sgf.SgfError) as e:
        sgf.loads(text)
    assert (e.value.line, e.value.node) == (8, 2)
    assert "W[a1] (Orange): Orange's first piece must cover j5" in str(e.value)


def test_setup_with_ab_aw_pl() -> None:
    text = (
        "(\n;GM[Blokus Duo]AB[a1][e10,d11,e11,f11,e12]AW[j5,j6]PL[W]\n"
        ";W[g7,h7,i7]\n;B[c9,d9]\n)\n"
    )
    rec = sgf.loads(text)
    setup = rec.setup_of(rec.root)
    assert setup is not None and setup.to_move == 1
    assert setup.add == {0: (Move.from_str("a1"), Move.from_str("e10,d11,e11,f11,e12")),
                         1: (Move.from_str("j5,j6"),)}
    start = rec.game(0)
    assert start.turn == 1 and start.history == []
    assert start.num_placed(0) == 2 and start.num_placed(1) == 1
    game = rec.game()
    assert [str(m) for m in game.move_stack] == ["g7,h7,i7", "c9,d9"]
    # Written anew from the game: the setup pieces are found again.
    assert sgf.dumps(game) == text


def test_setup_in_four_colours_and_round_trip_of_a_set_up_game() -> None:
    game = Game("trigon")
    moves = {0: [Move.from_str("r15")], 2: [Move.from_str("i12,j12"), Move.from_str("z7")]}
    game.setup(moves, to_move=2)
    game.push(next(iter(game.legal_moves)))
    text = sgf.dumps(game, info={"GN": "set up"})
    root_line = text.splitlines()[1]
    assert root_line.startswith(";GM[Blokus Trigon]GN[set up]")
    assert "A1[r15]" in root_line and "A3[z7][i12,j12]" in root_line
    assert root_line.endswith("PL[3]")
    back = sgf.loads(text).game()
    for c in range(4):
        assert back.cells_of(c) == game.cells_of(c)
        assert back.pieces_left(c) == game.pieces_left(c)
    assert back.turn == game.turn
    assert back.move_stack == game.move_stack


def test_setup_pieces_that_touch_along_an_edge_are_split_into_pieces() -> None:
    game = Game("duo")
    pieces = [Move.from_str("a1,b1"), Move.from_str("c1"), Move.from_str("a2,b2,c2")]
    game.setup({0: pieces})
    rec = sgf.record_of(game)
    # Several splits are possible (a1 | b1,c1 | a2,b2,c2 too); any one with
    # the same pieces gives the same position.
    assert len(rec.root.get_all("AB")) == 3
    back = rec.game()
    assert back.cells_of(0) == game.cells_of(0)
    assert back.pieces_left(0) == game.pieces_left(0)


def test_ae_removes_pieces_and_later_setup_rebuilds_the_position() -> None:
    text = (
        "(;GM[Blokus Duo]AB[e10,d11,e11,f11,e12][a1]AW[j5]PL[W]"
        ";W[k3,k4]"
        ";AE[a1][n14]PL[B]C[a1 goes, n14 was never there]"
        ";B[d13])"
    )
    rec = sgf.loads(text)
    assert rec.num_moves == 2
    before = rec.game(1)
    assert before.color_at(before.board.parse("a1")) is None
    assert before.color_at(before.board.parse("k4")) == 1
    assert before.turn == 0 and before.num_placed(0) == 1
    game = rec.game()
    assert [str(m) for m in game.move_stack] == ["d13"]  # history restarts at the setup
    rewritten = sgf.loads(sgf.dumps(game)).game()
    assert [rewritten.cells_of(c) for c in (0, 1)] == [game.cells_of(c) for c in (0, 1)]


def test_pl_alone_sets_the_colour_to_move() -> None:
    rec = sgf.loads("(;GM[Blokus Duo]PL[W];W[j5];B[e10])")
    assert [t.color for t in rec.moves] == [1, 0]
    assert rec.game().turn == 1


def test_old_pentobi_move_forms_are_read() -> None:
    # 1/2 for B/W in two-colour variants, and a move as one value per cell.
    rec = sgf.loads("(;GM[Blokus Duo];1[e10][e11];2[j5])")
    assert [(t.color, str(t.move)) for t in rec.moves] == [(0, "e10,e11"), (1, "j5")]


def test_charset_utf8_only() -> None:
    assert sgf.loads("(;GM[Blokus Duo]CA[UTF-8])").variant.id == "duo"
    assert sgf.loads("(;CA[utf8]GM[Blokus Duo])").variant.id == "duo"
    with pytest.raises(sgf.SgfError, match=r"CA\[ISO-8859-1\] is not supported"):
        sgf.loads("(;GM[Blokus Duo]CA[ISO-8859-1])")


def test_edited_tree_that_no_longer_replays_raises() -> None:
    rec = sgf.load(REFERENCE / "junior" / "sgf" / "junior_s0003.blksgf")
    node = rec.main_line()[5]
    (prop_id,) = node.properties
    node.set(prop_id, "a1")
    with pytest.raises(sgf.SgfError, match="node 5"):
        rec.game()


# ---------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------


def test_dump_and_load_files(tmp_path: Path) -> None:
    game = Game("junior")
    game.push(next(iter(game.legal_moves)))
    path = tmp_path / "g.blksgf"
    sgf.dump(game, path, info={"PB": "Zoë"})
    data = path.read_bytes()
    assert b"\r" not in data and "Zoë".encode() in data
    rec = sgf.load(path)
    assert rec.info == {"PB": "Zoë"} and rec.game().move_stack == game.move_stack
    assert sgf.load(str(path)).num_moves == 1


def test_load_errors_name_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing.blksgf"
    with pytest.raises(sgf.SgfError, match="missing.blksgf: cannot read the file"):
        sgf.load(missing)
    bad = tmp_path / "latin1.blksgf"
    bad.write_bytes("(\n;GM[Blokus Duo]\nPB[J\xfcrgen])".encode("latin-1"))
    with pytest.raises(sgf.SgfError, match=r"latin1.blksgf: line 3: not valid UTF-8") as e:
        sgf.load(bad)
    assert e.value.file == str(bad)
    illegal = tmp_path / "illegal.blksgf"
    illegal.write_text("(\n;GM[Blokus Duo]\n;B[a1]\n)\n")
    with pytest.raises(sgf.SgfError, match=r"illegal.blksgf: line 3, node 1: move B\[a1\]"):
        sgf.load(illegal)


# ---------------------------------------------------------------------------
# Malformed input: each fault, with its line and reason
# ---------------------------------------------------------------------------

DUO = "(\n;GM[Blokus Duo]\n"
BAD = [
    ("empty", "", 1, "empty input"),
    ("only spaces", "  \n ", 2, "empty input"),
    ("garbage", "hello world", 1, "expected '('"),
    ("text before the tree", "x(;GM[Blokus Duo])", 1, "expected '('"),
    ("unclosed tree", DUO + ";B[e10]\n", 4, "'(' of line 1 is not closed"),
    ("truncated value", DUO + ";B[d9,c10", 3, "value of B is not closed"),
    ("truncated after backslash", DUO + ";C[abc\\", 3, "value of C is not closed"),
    ("extra ')'", DUO + ")\n)", 4, "unexpected ')' after the end"),
    ("trailing text", DUO + ")\nfoo", 4, "unexpected 'f' after the end"),
    ("two game trees", DUO + ")\n(;GM[Blokus Duo])", 4, "second game tree"),
    ("empty variation", DUO + "()\n)", 3, "empty game tree or variation"),
    ("empty tree", "()", 1, "empty game tree"),
    ("tree inside tree first", "((;GM[Blokus Duo]))", 1, "variation must follow a node"),
    ("node after variation", DUO + "(;B[e10]);B[e10])", 3, "node after a variation"),
    ("stray text in tree", DUO + ";B[e10]\n(;W[j5])\nx)", 5, "unexpected 'x' (expected"),
    ("property without value", DUO + ";B\n)", 4, "property B has no value"),
    ("bad property id", "(;GM[Blokus Duo]P-B[x])", 1, "property P has no value"),
    ("bad character in node", "(;GM[Blokus Duo]%[x])", 1, "unexpected '%' in a node"),
    ("duplicate property", DUO + "PB[a]\nPB[b])", 4, "PB appears twice"),
    ("missing GM", "(\n;PB[x]\n;1[a20]\n)", 2, "no GM property"),
    ("unknown GM", "(\n;FF[4]GM[Go]\n)", 2, "unknown game GM[Go]"),
    ("charset", "(;GM[Blokus Duo]\nCA[Latin-1])", 2, "only UTF-8"),
    ("bad move text", DUO + ";B[e10]\n;W[j5,,]\n)", 4, "W[j5,,]: 'j5,,' is not a move"),
    ("empty move", DUO + ";B[]\n)", 3, "empty move"),
    ("pass", DUO + ";B[pass]\n)", 3, "passes are not written"),
    ("off the board", DUO + ";B[o15]\n)", 3, "o15 is not on the board"),
    ("not a piece", DUO + ";B[e10,g10]\n)", 3, "do not form a piece of Blokus Duo"),
    ("illegal first move", DUO + ";B[a1]\n)", 3, "first piece must cover e10"),
    ("occupied", DUO + ";B[e10]\n;W[j5]\n;B[d8,d9]\n;W[e9,e10]\n)", 6, "e10 is occupied"),
    ("out of turn", DUO + ";W[j5]\n)", 3, "not Orange's turn (Purple is to move)"),
    ("out of turn later", "(;GM[Blokus]\n;1[a20]\n;3[t1]\n)", 3,
     "not Red's turn (Yellow is to move)"),
    ("wrong colour id", "(;GM[Blokus]\n;B[a20]\n)", 2, "B is not a move property of Blokus"),
    ("colour the variant lacks", "(;GM[Blokus Trigon Three-Player]\n;4[p14]\n)", 2,
     "4 is not a move property"),
    ("two moves in a node", DUO + ";B[e10]W[j5]\n)", 3, "two moves in one node"),
    ("setup overlap", DUO + "AB[e10]AW[e10]\n)", 3, "setup piece e10 overlaps"),
    ("setup piece twice", DUO + "AB[a1][e10]\n)", 3, "piece 1 is already placed"),
    ("setup colour missing", DUO + "A3[a1]\n)", 3, "A3: Blokus Duo has only 2 colours"),
    ("setup bad piece", DUO + "AB[a1,c1]\n)", 3, "do not form a piece"),
    ("bad PL", DUO + "AB[a1]\nPL[3]\n)", 4, "PL[3] is not a colour"),
    ("not UTF-8", b"(;GM[Blokus Duo]\n;C[\xff])", 2, "not valid UTF-8"),
]


@pytest.mark.parametrize(("text", "line", "reason"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_malformed_input_is_an_sgf_error(text: str | bytes, line: int, reason: str) -> None:
    result = None
    with pytest.raises(sgf.SgfError) as e:
        result = sgf.loads(text)
    assert result is None  # nothing half-built comes back
    err = e.value
    assert isinstance(err, ValueError)
    assert err.line == line, str(err)
    assert reason in err.reason, str(err)
    assert str(err).startswith(f"line {line}")
    assert "\n" not in str(err)


def test_move_errors_name_node_move_and_reason() -> None:
    with pytest.raises(sgf.SgfError) as e:
        sgf.loads(DUO + ";B[e10]\n;W[j5]\n;B[d8,d9]\n;W[e9,e10]\n)")
    assert str(e.value) == "line 6, node 4: move W[e9,e10] (Orange): e10 is occupied"
    assert e.value.node == 4 and e.value.column is None
