"""Blokus SGF game records (``.blksgf``), read and written as Pentobi does.

Three layers, each using only the one below it (see ``docs/sgf.md``):

1. **Syntax**: :func:`parse_tree` turns SGF text into a tree of :class:`Node`
   objects (ordered properties: id -> list of values, unescaped), and
   :func:`write_tree` turns such a tree back into text in Pentobi's layout.
   This layer knows nothing of Blokus.
2. **Game tree**: :class:`GameRecord` reads the variant from ``GM``, gives
   typed values (moves as :class:`~blokus.game.Turn`, setup as :class:`Setup`,
   game info, comments) and checks every move of every variation.
3. **Bridge**: :meth:`GameRecord.game` replays the main line on a
   :class:`~blokus.game.Game`; :func:`record_of` / :func:`dumps` turn a game
   back into a record.

>>> from blokus import Game
>>> game = Game("duo")
>>> game.push("e10,d11,e11,f11,e12")
>>> text = dumps(game, info={"PB": "Ann", "PW": "Bob"})
>>> print(text, end="")
(
;GM[Blokus Duo]PB[Ann]PW[Bob]
;B[e10,d11,e11,f11,e12]
)
>>> rec = loads(text)
>>> rec.variant.id, rec.num_moves, rec.info["PW"]
('duo', 1, 'Bob')
>>> rec.game().color_to_move.name
'Orange'
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from blokus.game import Game, Turn
from blokus.notation import IllegalMoveError, InvalidMoveError, Move
from blokus.variants import VARIANTS, Seating, Variant
from blokus.variants import variant as find_variant

__all__ = [
    "GameRecord",
    "Node",
    "Setup",
    "SgfError",
    "dump",
    "dumps",
    "dumps_record",
    "load",
    "loads",
    "parse_tree",
    "record_of",
    "write_tree",
]


class SgfError(ValueError):
    """A record that cannot be read: bad syntax, unknown variant, bad or
    illegal move.  ``str(error)`` names the place (file, line, column or node
    number) and the reason; the parts are also attributes."""

    def __init__(
        self,
        reason: str,
        *,
        line: int | None = None,
        column: int | None = None,
        node: int | None = None,
        file: str | None = None,
    ) -> None:
        self.reason = reason
        """What is wrong, without the place."""
        self.line = line
        """1-based line of the text, if known."""
        self.column = column
        """1-based column of the text, if known."""
        self.node = node
        """Node number (the root is node 0, its child node 1, …), if known."""
        self.file = file
        """The file name, for :func:`load`."""
        where = []
        if line is not None:
            where.append(f"line {line}")
        if column is not None:
            where.append(f"column {column}")
        if node is not None:
            where.append(f"node {node}")
        prefix = ", ".join(where)
        if file is not None:
            prefix = f"{file}: {prefix}" if prefix else file
        super().__init__(f"{prefix}: {reason}" if prefix else reason)

    def in_file(self, file: str) -> SgfError:
        """The same error, naming ``file``."""
        return SgfError(self.reason, line=self.line, column=self.column, node=self.node, file=file)


# =========================================================================
# Layer 1: syntax
# =========================================================================

_ID = re.compile(r"[A-Za-z0-9]+")
_WHITESPACE = re.compile(r"[ \t\n\v\f]*")
# The inside of a value: anything up to the first ']' that no '\' escapes.
_VALUE = re.compile(r"[^\\\]]*(?:\\.[^\\\]]*)*", re.DOTALL)
_ESCAPED = re.compile(r"\\(.)", re.DOTALL)
_SPACES = str.maketrans({"\t": " ", "\f": " ", "\v": " "})


def _unescape(raw: str) -> str:
    # "\x" is x; "\" + newline is a soft line break and disappears.
    return _ESCAPED.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), raw)


def _escape(value: str) -> str:
    # As Pentobi writes: escape '\' and ']', tab / form feed / vertical tab
    # become spaces, line breaks are written as they are (always LF here).
    value = value.replace("\r\n", "\n").replace("\r", "\n").translate(_SPACES)
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _check_id(prop_id: str) -> None:
    if not isinstance(prop_id, str) or not _ID.fullmatch(prop_id):
        raise ValueError(f"{prop_id!r} is not an SGF property id (letters and digits only)")


class Node:
    """One node of an SGF tree: ordered properties and child nodes.

    ``properties`` maps a property id to its list of values (unescaped
    text); its order is the order in the file.  ``children[0]`` continues the
    main line, further children are variations.
    """

    def __init__(
        self,
        properties: Mapping[str, str | Sequence[str]] | None = None,
        parent: Node | None = None,
    ) -> None:
        """A node with these properties; appended to ``parent``'s children if
        given.  Raises ``ValueError`` for a bad property id or value."""
        self.properties: dict[str, list[str]] = {}
        self.children: list[Node] = []
        self.parent: Node | None = parent
        self.line: int | None = None
        """The line of its ``;`` in the text it was read from."""
        self._lines: dict[str, int] = {}
        for prop_id, values in (properties or {}).items():
            self.set(prop_id, values)
        if parent is not None:
            parent.children.append(self)

    # -- properties ---------------------------------------------------------

    def __contains__(self, prop_id: object) -> bool:
        return prop_id in self.properties

    def get(self, prop_id: str, default: str | None = None) -> str | None:
        """The first value of a property, or ``default`` if it is absent."""
        values = self.properties.get(prop_id)
        return values[0] if values else default

    def get_all(self, prop_id: str) -> list[str]:
        """All values of a property (a new list; empty if it is absent)."""
        return list(self.properties.get(prop_id, ()))

    def set(self, prop_id: str, value: str | Sequence[str]) -> None:
        """Set a property to one value or a list of values (at least one).
        An existing property keeps its place; a new one goes last.  Raises
        ``ValueError`` for a bad id or an empty list, ``TypeError`` for a
        value that is not a string."""
        _check_id(prop_id)
        values = [value] if isinstance(value, str) else list(value)
        if not values:
            raise ValueError(f"property {prop_id} needs at least one value")
        for v in values:
            if not isinstance(v, str):
                raise TypeError(f"property {prop_id}: value {v!r} is not a string")
        self.properties[prop_id] = values

    def remove(self, prop_id: str) -> bool:
        """Remove a property; whether it was there."""
        self._lines.pop(prop_id, None)
        return self.properties.pop(prop_id, None) is not None

    @property
    def comment(self) -> str | None:
        """The ``C`` comment; setting ``None`` or ``""`` removes it."""
        return self.get("C")

    @comment.setter
    def comment(self, text: str | None) -> None:
        if text:
            self.set("C", text)
        else:
            self.remove("C")

    # -- the tree -----------------------------------------------------------

    def new_child(self, properties: Mapping[str, str | Sequence[str]] | None = None) -> Node:
        """A new last child of this node (a variation if there was one)."""
        return Node(properties, self)

    @property
    def depth(self) -> int:
        """The node number: 0 for the root, 1 for its children, …"""
        n = 0
        node = self.parent
        while node is not None:
            n += 1
            node = node.parent
        return n

    def main_line(self) -> list[Node]:
        """This node and its first child, that one's first child, … to the end."""
        line = [self]
        node = self
        while node.children:
            node = node.children[0]
            line.append(node)
        return line

    def walk(self) -> Iterator[Node]:
        """This node and all below it, in file order (depth first)."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def line_of(self, prop_id: str) -> int | None:
        """The line where a property was read (else the node's line)."""
        return self._lines.get(prop_id, self.line)

    def __repr__(self) -> str:
        props = "".join(
            k + "".join(f"[{_escape(v)}]" for v in vs) for k, vs in self.properties.items()
        )
        return f"<Node ;{props} ({len(self.children)} children)>"


def _decode(data: str | bytes) -> str:
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            line = data.count(b"\n", 0, e.start) + 1
            raise SgfError(
                f"not valid UTF-8 (byte {data[e.start]:#04x}); Blokus SGF files are UTF-8",
                line=line,
            ) from None
    elif isinstance(data, str):
        text = data
    else:
        raise TypeError(f"expected str or bytes, not {type(data).__name__}")
    text = text.removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n")


@dataclass
class _Frame:
    """An open '(' while parsing."""

    start: int
    """Its position in the text."""
    parent: Node | None
    """The node its first node hangs from (``None`` for the game tree)."""
    last: Node | None = None
    """Its last node so far."""
    branched: bool = False
    """Whether a variation has opened inside it."""


class _Parser:
    """Reads one game tree; positions are tracked for error messages."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.newlines = [i for i, ch in enumerate(text) if ch == "\n"]

    def where(self, pos: int) -> tuple[int, int]:
        line = bisect_right(self.newlines, pos - 1)
        start = self.newlines[line - 1] + 1 if line else 0
        return line + 1, pos - start + 1

    def error(self, reason: str, pos: int | None = None) -> SgfError:
        line, column = self.where(self.pos if pos is None else pos)
        return SgfError(reason, line=line, column=column)

    def skip_space(self) -> None:
        m = _WHITESPACE.match(self.text, self.pos)
        assert m is not None
        self.pos = m.end()

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def parse(self) -> Node:
        text = self.text
        self.skip_space()
        if self.pos == len(text):
            raise self.error("empty input: no game tree")
        if self.peek() != "(":
            raise self.error(f"expected '(' to start the game tree, found {self.peek()!r}")
        root: Node | None = None
        frames: list[_Frame] = []
        while True:
            self.skip_space()
            ch = self.peek()
            if ch == "":
                open_line = self.where(frames[-1].start)[0]
                raise self.error(
                    f"unexpected end of input: the '(' of line {open_line} is not closed"
                    " (missing ')'; truncated file?)"
                )
            if ch == "(":
                if frames:
                    outer = frames[-1]
                    if outer.last is None:
                        raise self.error("a variation must follow a node, not start a tree")
                    outer.branched = True
                    frames.append(_Frame(self.pos, outer.last))
                else:
                    frames.append(_Frame(self.pos, None))
                self.pos += 1
            elif ch == ";":
                frame = frames[-1]
                if frame.branched:
                    raise self.error("a node after a variation (expected '(' or ')')")
                node = Node(parent=frame.last or frame.parent)
                node.line = self.where(self.pos)[0]
                if root is None:
                    root = node
                frame.last = node
                self.pos += 1
                self.read_properties(node)
            elif ch == ")":
                frame = frames.pop()
                if frame.last is None:
                    raise self.error("empty game tree or variation '()' (no node)")
                self.pos += 1
                if not frames:
                    break
            else:
                raise self.error(f"unexpected {ch!r} (expected ';', '(' or ')')")
        self.skip_space()
        if self.pos < len(text):
            if self.peek() == "(":
                raise self.error("a second game tree: only one game per file is supported")
            raise self.error(f"unexpected {self.peek()!r} after the end of the game tree")
        assert root is not None
        return root

    def read_properties(self, node: Node) -> None:
        text = self.text
        while True:
            self.skip_space()
            ch = self.peek()
            if ch in ("(", ")", ";", ""):
                return
            m = _ID.match(text, self.pos)
            if m is None:
                raise self.error(f"unexpected {ch!r} in a node (expected a property id)")
            prop_id = m.group()
            start = self.pos
            self.pos = m.end()
            self.skip_space()
            if self.peek() != "[":
                found = repr(self.peek()) if self.peek() else "the end"
                raise self.error(f"property {prop_id} has no value (expected '[', found {found})")
            if prop_id in node.properties:
                raise self.error(f"property {prop_id} appears twice in one node", start)
            values = []
            while self.peek() == "[":
                open_pos = self.pos
                v = _VALUE.match(text, self.pos + 1)
                assert v is not None
                end = v.end()
                if end >= len(text) or text[end] != "]":
                    raise self.error(
                        f"the value of {prop_id} is not closed (missing ']'; truncated file?)",
                        open_pos,
                    )
                values.append(_unescape(v.group()))
                self.pos = end + 1
                self.skip_space()
            node.properties[prop_id] = values
            node._lines[prop_id] = self.where(start)[0]


def parse_tree(data: str | bytes) -> Node:
    """The root of the one game tree in SGF text (bytes are UTF-8).

    Line breaks CR LF and CR read as LF; ``\\x`` reads as ``x``; a ``\\``
    before a line break removes both (a soft line break).  Raises
    :class:`SgfError` naming the line and column of the first fault.
    """
    return _Parser(_decode(data)).parse()


def _write_node(node: Node, out: list[str]) -> None:
    out.append(";")
    for prop_id, values in node.properties.items():
        _check_id(prop_id)
        if not values:
            raise ValueError(f"property {prop_id} has no value")
        out.append(prop_id)
        for v in values:
            out.append(f"[{_escape(v)}]")
    out.append("\n")


def write_tree(root: Node) -> str:
    """SGF text of the tree below ``root``, in Pentobi's layout: ``(`` and a
    line break, one node per line (all its properties on that line, in
    order), and where a node has several children each child's subtree in
    its own ``(`` … ``)`` on lines of their own; ``)`` and a line break at
    the end.  Raises ``ValueError`` for a bad property id or a property
    without values."""
    out: list[str] = ["(\n"]
    stack: list[Node | str] = [")\n", root]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        _write_node(item, out)
        kids = item.children
        if len(kids) == 1:
            stack.append(kids[0])
        else:
            for kid in reversed(kids):
                stack.extend((")\n", kid, "(\n"))
    return "".join(out)


# =========================================================================
# Layer 2: typed values and the game tree
# =========================================================================

_SETUP_IDS = ("A1", "A2", "A3", "A4", "AB", "AW")
"""Setup-adding properties, in the order they are applied."""
_MOVE_IDS = ("B", "W", "1", "2", "3", "4")
_NOT_INFO = frozenset(
    ("GM", "FF", "CA", "AP", "SZ", "ST", "C", "PL", "AE") + _SETUP_IDS + _MOVE_IDS
)
"""Root properties that are not game information."""


@dataclass(frozen=True)
class Setup:
    """The setup properties of one node."""

    add: dict[int, tuple[Move, ...]] = field(default_factory=dict)
    """Pieces placed, per colour index (``AB``/``A1`` is colour 0, …)."""
    remove: tuple[Move, ...] = ()
    """Pieces taken off the board (``AE``)."""
    to_move: int | None = None
    """The colour to move next (``PL``), if given."""


def _move_colors(variant: Variant) -> dict[str, int]:
    if variant.num_colors == 2:
        # Pentobi also reads 1 / 2 in two-colour variants (old files).
        return {"B": 0, "W": 1, "1": 0, "2": 1}
    return {str(i + 1): i for i in range(variant.num_colors)}


class GameRecord:
    """A Blokus game tree: the variant, game info, moves, setup, comments.

    Made from a root :class:`Node` (usually by :func:`loads`).  Creating it
    checks the whole tree: the ``GM`` variant, the charset, and that every
    move of every variation is legal in turn; it raises :class:`SgfError`
    (naming line, node, move and reason) otherwise.  The nodes stay
    editable; :meth:`game` replays the tree as it is when called.
    """

    def __init__(self, root: Node, seating: str | Seating | None = None) -> None:
        self.root = root
        """The root node."""
        self.variant: Variant = self._read_variant()
        """The variant named by ``GM``."""
        self.seating = seating
        """The seating used by :meth:`game` (``None``: the variant's default)."""
        self._move_ids = _move_colors(self.variant)
        self._check_charset()
        self._check_tree()

    def _error(self, node: Node, reason: str, prop_id: str | None = None) -> SgfError:
        line = node.line if prop_id is None else node.line_of(prop_id)
        return SgfError(reason, line=line, node=node.depth)

    def _read_variant(self) -> Variant:
        root = self.root
        if root.parent is not None:
            raise ValueError("a GameRecord needs the root node")
        gm = root.get("GM")
        if gm is None:
            raise self._error(root, "the root has no GM property (the game variant)")
        try:
            return find_variant(gm)
        except KeyError:
            known = ", ".join(v.name for v in VARIANTS.values())
            raise self._error(root, f"unknown game GM[{gm}] (known: {known})", "GM") from None

    def _check_charset(self) -> None:
        ca = self.root.get("CA")
        if ca is not None and ca.strip().lower().replace("-", "").replace("_", "") != "utf8":
            raise self._error(
                self.root, f"charset CA[{ca}] is not supported: only UTF-8", "CA"
            )

    # -- typed values of a node -------------------------------------------------

    def _parse_move(self, node: Node, prop_id: str, text: str) -> Move:
        try:
            move = Move.from_str(text)
        except InvalidMoveError as e:
            raise self._error(node, f"{prop_id}[{text}]: {e}", prop_id) from None
        if move.is_pass:
            reason = f"{prop_id}[{text}]: passes are not written in records"
            raise self._error(node, reason, prop_id)
        return move

    def move_of(self, node: Node) -> Turn | None:
        """The move of a node (colour index and :class:`Move`), or ``None``.
        Raises :class:`SgfError` for unreadable move text, a colour the
        variant lacks, or two moves in one node."""
        found = [k for k in _MOVE_IDS if k in node.properties]
        if not found:
            return None
        for k in found:
            if k not in self._move_ids:
                ids = sorted(set(self._move_ids) - ({"1", "2"} if "B" in self._move_ids else set()))
                raise self._error(
                    node,
                    f"{k} is not a move property of {self.variant.name} (moves: {' '.join(ids)})",
                    k,
                )
        if len(found) > 1:
            raise self._error(node, f"two moves in one node ({' and '.join(found)})", found[1])
        prop_id = found[0]
        # A move may be one value or (old Pentobi files) one value per cell.
        text = ",".join(node.properties[prop_id])
        return Turn(self._move_ids[prop_id], self._parse_move(node, prop_id, text))

    def setup_of(self, node: Node) -> Setup | None:
        """The setup of a node (``AB AW A1``–``A4 AE PL``), or ``None``.
        ``AB`` means colour 0 and ``AW`` colour 1 in every variant, as in
        Pentobi.  Raises :class:`SgfError` for a bad piece or colour."""
        props = node.properties
        if not any(k in props for k in (*_SETUP_IDS, "AE", "PL")):
            return None
        n = self.variant.num_colors
        add: dict[int, tuple[Move, ...]] = {}
        for k in _SETUP_IDS:
            if k not in props:
                continue
            color = 0 if k == "AB" else 1 if k == "AW" else int(k[1]) - 1
            if color >= n:
                raise self._error(node, f"{k}: {self.variant.name} has only {n} colours", k)
            moves = tuple(self._parse_move(node, k, v) for v in props[k])
            add[color] = add.get(color, ()) + moves
        remove = tuple(self._parse_move(node, "AE", v) for v in props.get("AE", ()))
        to_move = None
        pl = node.get("PL")
        if pl is not None:
            names = ["B", "W"] if n == 2 else [str(i + 1) for i in range(n)]
            aliases = {"B": 0, "W": 1, "1": 0, "2": 1, "3": 2, "4": 3}
            to_move = aliases.get(pl.strip())
            if to_move is None or to_move >= n:
                reason = f"PL[{pl}] is not a colour of {self.variant.name} ({', '.join(names)})"
                raise self._error(node, reason, "PL")
        return Setup(add, remove, to_move)

    # -- the main line ----------------------------------------------------------

    def main_line(self) -> list[Node]:
        """The nodes of the main line, root first."""
        return self.root.main_line()

    @property
    def moves(self) -> list[Turn]:
        """The moves of the main line, in order."""
        return [t for t in map(self.move_of, self.main_line()) if t is not None]

    @property
    def num_moves(self) -> int:
        """Number of pieces placed by moves on the main line (setup excluded)."""
        return len(self.moves)

    @property
    def comments(self) -> list[str | None]:
        """The ``C`` comment of each main-line node (index = node number)."""
        return [node.comment for node in self.main_line()]

    @property
    def info(self) -> dict[str, str]:
        """Game information from the root: every root property except the
        variant, file format, charset, application, comment, moves and setup
        (so ``PB PW P1``–``P4 DT RE EV GN RO PC``…, also unknown ones), id ->
        first value, in file order.  A new dict; edit ``root`` to change it."""
        return {k: v[0] for k, v in self.root.properties.items() if k not in _NOT_INFO and v}

    def player_name(self, color: int) -> str | None:
        """The player name of a colour as Pentobi reads it: ``PB``/``PW`` in
        two-player variants (colours 0, 2 / 1, 3), else ``P1``–``P4``."""
        if len(self.variant.seating.seats) == 2:
            return self.root.get("PB" if color % 2 == 0 else "PW")
        return self.root.get(f"P{color + 1}")

    def game(self, moves: int | None = None, seating: str | Seating | None = None) -> Game:
        """The position before the main line's move ``moves + 1`` (``None``:
        after all of it), setup applied.  A setup after the root rebuilds the
        position, so the game's history starts at the last setup applied.
        Raises ``ValueError`` for a bad ``moves`` and :class:`SgfError` if
        the (edited) tree no longer replays."""
        total = self.num_moves
        if moves is not None and not 0 <= moves <= total:
            raise ValueError(f"moves must be between 0 and {total}, not {moves}")
        replay = _Replay(self, self.seating if seating is None else seating)
        count = 0
        for node in self.main_line():
            turn = self.move_of(node)
            if turn is not None and count == moves:
                break
            replay.apply(node, turn)
            count += turn is not None
        return replay.game

    def _check_tree(self) -> None:
        stack = [(self.root, _Replay(self, self.seating))]
        while stack:
            node, replay = stack.pop()
            replay.apply(node, self.move_of(node))
            kids = node.children
            for kid in reversed(kids[1:]):
                stack.append((kid, replay.copy()))
            if kids:
                stack.append((kids[0], replay))

    def __repr__(self) -> str:
        return f"<GameRecord {self.variant.name!r}, {self.num_moves} moves>"


class _Replay:
    """A game plus the pieces on its board per colour (to rebuild setups)."""

    def __init__(self, rec: GameRecord, seating: str | Seating | None) -> None:
        self.rec = rec
        self.seating = seating
        self.game = Game(rec.variant, seating)
        self.placed: list[list[Move]] = [[] for _ in range(rec.variant.num_colors)]

    def copy(self) -> _Replay:
        other = _Replay.__new__(_Replay)
        other.rec, other.seating = self.rec, self.seating
        other.game = self.game.copy()
        other.placed = [p[:] for p in self.placed]
        return other

    def apply(self, node: Node, turn: Turn | None) -> None:
        """Apply a node's setup, then its move; raises :class:`SgfError`."""
        rec = self.rec
        setup = rec.setup_of(node)
        if setup is not None:
            placed = [p + list(setup.add.get(c, ())) for c, p in enumerate(self.placed)]
            for move in setup.remove:  # a piece not on the board is ignored, as Pentobi does
                for pieces in placed:
                    if move in pieces:
                        pieces.remove(move)
                        break
            to_move = setup.to_move if setup.to_move is not None else self.game.turn
            game = Game(rec.variant, self.seating)
            try:
                game.setup({c: p for c, p in enumerate(placed) if p}, to_move)
            except IllegalMoveError as e:
                first = next(k for k in (*_SETUP_IDS, "AE", "PL") if k in node.properties)
                raise rec._error(node, f"setup: {e}", first) from None
            self.game, self.placed = game, placed
        if turn is None:
            return
        game = self.game
        color, move = turn.color, turn.move
        variant = rec.variant
        prop_id = variant.colors[color].sgf
        if prop_id not in node.properties:  # an old-style id: 1 / 2 in two-colour variants
            prop_id = str(color + 1)
        what = f"{prop_id}[{move}] ({variant.colors[color].name})"
        if game.turn is None:
            raise rec._error(node, f"move {what}: the game is over", prop_id)
        if game.turn != color:
            mover = variant.colors[game.turn].name
            raise rec._error(
                node,
                f"move {what}: not {variant.colors[color].name}'s turn ({mover} is to move)",
                prop_id,
            )
        reason = game.why_illegal(move, color)
        if reason is not None:
            raise rec._error(node, f"move {what}: {reason}", prop_id)
        game.push(move)
        self.placed[color].append(move)


# =========================================================================
# Layer 3: the bridge from a Game
# =========================================================================


def _setup_pieces(game: Game, color: int) -> list[Move]:
    """Split the cells of ``color`` into pieces it has placed (exact cover
    with the pieces it no longer has), in placement-table order."""
    table = game.table
    board = game.board
    left = [0] * len(game.variant.piece_set.pieces)
    for piece in game.pieces_left(color):
        left[piece.index] += 1
    used = [p.copies - left[p.index] for p in game.variant.piece_set.pieces]

    def solve(mask: int) -> list[int] | None:
        if not mask:
            return []
        whole = table.by_mask.get(mask)
        if whole is not None and used[table.piece[whole]] > 0:
            return [whole]
        low = (mask & -mask).bit_length() - 1
        bits = table.cover[low]
        while bits:
            bit = bits & -bits
            bits ^= bit
            i = bit.bit_length() - 1
            m = table.mask[i]
            p = table.piece[i]
            if m & ~mask or used[p] == 0:
                continue
            used[p] -= 1
            rest = solve(mask ^ m)
            if rest is not None:
                return [i, *rest]
            used[p] += 1
        return None

    cells = game.cells_of(color)
    found: list[int] = []
    while cells:
        # One edge-connected group of cells at a time.
        low = (cells & -cells).bit_length() - 1
        group, frontier = 0, 1 << low
        while frontier:
            group |= frontier
            grow = 0
            f = frontier
            while f:
                bit = f & -f
                f ^= bit
                grow |= board.edge_masks[bit.bit_length() - 1]
            frontier = grow & cells & ~group
        cells &= ~group
        pieces = solve(group)
        if pieces is None:  # pragma: no cover - setup only places whole pieces
            raise ValueError(f"cannot split the cells of colour {color} into pieces")
        found.extend(pieces)
    return [table.move(i) for i in sorted(found)]


def _player_props(game: Game, names: Sequence[str]) -> dict[str, str]:
    seats = game.seating.seats
    if len(names) != len(seats):
        raise ValueError(f"{len(names)} player names for {len(seats)} seats ({game.seating.id})")
    props: dict[str, str] = {}
    two_players = len(game.variant.seating.seats) == 2
    for seat, name in zip(seats, names, strict=True):
        if not name:
            continue
        for color in seat.colors:
            prop_id = ("PB" if color % 2 == 0 else "PW") if two_players else f"P{color + 1}"
            props[prop_id] = name
    return props


def record_of(
    game: Game,
    info: Mapping[str, str | Sequence[str]] | None = None,
    seating: Sequence[str] | None = None,
) -> GameRecord:
    """A record of ``game``: a root with ``GM``, the player names, ``info``
    (in the order given) and, if the game began from a setup, the setup
    pieces and ``PL``; then one node per placed piece (passes are not
    written).  ``seating`` gives a player name per seat of
    ``game.seating``, written as ``PB``/``PW`` in two-player variants, else
    ``P1``–``P4`` by the colours each seat moves.  Raises ``ValueError`` for
    a bad info id (moves, setup and ``GM`` come from the game) or value, or
    the wrong number of names."""
    variant = game.variant
    root = Node({"GM": variant.name})
    props: dict[str, str | Sequence[str]] = {}
    if seating is not None:
        props.update(_player_props(game, seating))
    for prop_id, value in (info or {}).items():
        if prop_id in ("GM", "PL", "AE") + _SETUP_IDS + _MOVE_IDS:
            raise ValueError(f"info cannot set {prop_id}: it comes from the game")
        if prop_id in props:
            raise ValueError(f"{prop_id} is given both as a player name and in info")
        props[prop_id] = value
    for prop_id, value in props.items():
        root.set(prop_id, value)
    start = game.copy()
    for _ in game.move_stack:
        start.pop()
    if start.occupied or start.turn != 0:  # a new game starts with colour 0 to move
        for color in range(variant.num_colors):
            pieces = _setup_pieces(start, color)
            if pieces:
                prop_id = ("AB", "AW")[color] if variant.num_colors == 2 else f"A{color + 1}"
                root.set(prop_id, [str(m) for m in pieces])
        if start.turn is not None:
            root.set("PL", variant.colors[start.turn].sgf)
    node = root
    for turn in game.history:
        if not turn.move.is_pass:
            node = node.new_child({variant.colors[turn.color].sgf: str(turn.move)})
    return GameRecord(root, game.seating)


# =========================================================================
# Text and files
# =========================================================================


def loads(data: str | bytes, seating: str | Seating | None = None) -> GameRecord:
    """Read a record from SGF text (bytes are decoded as UTF-8); raises
    :class:`SgfError`."""
    return GameRecord(parse_tree(data), seating)


def load(path: str | os.PathLike[str], seating: str | Seating | None = None) -> GameRecord:
    """Read a record from a file; raises :class:`SgfError` naming the file
    (also when the file cannot be read)."""
    name = os.fspath(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise SgfError(f"cannot read the file: {e.strerror or e}", file=name) from None
    try:
        return loads(data, seating)
    except SgfError as e:
        raise e.in_file(name) from None


def dumps_record(rec: GameRecord | Node) -> str:
    """The SGF text of a record (or of the tree below a root node), all
    properties kept in their order; see :func:`write_tree` for the layout."""
    return write_tree(rec.root if isinstance(rec, GameRecord) else rec)


def dumps(
    game: Game,
    info: Mapping[str, str | Sequence[str]] | None = None,
    seating: Sequence[str] | None = None,
) -> str:
    """The SGF text of ``game`` (see :func:`record_of`)."""
    return dumps_record(record_of(game, info, seating))


def dump(
    game: Game,
    path: str | os.PathLike[str],
    info: Mapping[str, str | Sequence[str]] | None = None,
    seating: Sequence[str] | None = None,
) -> None:
    """Write ``game`` to a file, UTF-8 with LF line breaks (see
    :func:`record_of`); raises ``OSError`` if it cannot be written."""
    data = dumps(game, info, seating).encode("utf-8")
    with open(path, "wb") as f:
        f.write(data)
