"""The ``blokus`` command: play at one keyboard, and show, list and score records.

::

    blokus serve [--host H] [--port P] [--open]
    blokus play  [--variant ID] [--seating ID] [--seat N=SPEC] [--scoring RULE] [--load RECORD]
    blokus show  RECORD [--move N] [--svg FILE] [--no-color]
    blokus legal RECORD [--move N] [--color C] [--count]
    blokus score RECORD [--scoring RULE]
    blokus gtp   [--game ID] [--level N] [--seed N] [--threads N]
    blokus match PLAYER_A PLAYER_B [--variant ID] [--games N] [--workers K] [--out DIR]
                 [--seed N] [--move-timeout S]
    blokus bench [--variant ID] [--seconds S] [--threads T] [--json] [--record FILE --move N]

Any bad argument or unreadable record gives one line on stderr,
``blokus: error: ...``, and exit status 2.

The hot-seat game is :class:`HotSeat`, which reads and writes plain text
streams so that it can be driven by tests.  Who plays each seat is a mapping
from seat index to a computer player (anything with ``choose(game) -> Move``);
seats without one are people at the keyboard.
"""

from __future__ import annotations

import argparse
import functools
import os
import signal
import sys
import textwrap
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import NoReturn, Protocol, TextIO

from blokus import render, sgf
from blokus.game import Game
from blokus.geometry import Cell, TriangleBoard
from blokus.notation import Move
from blokus.placements import PlacementTable
from blokus.players import RandomPlayer, runs_search
from blokus.scoring import RULES
from blokus.variants import VARIANTS
from blokus.variants import variant as find_variant

__all__ = [
    "HELP",
    "ComputerPlayer",
    "HotSeat",
    "UsageError",
    "build_parser",
    "main",
    "outcome_lines",
    "piece_move",
    "play",
]

PROG = "blokus"


class UsageError(ValueError):
    """Bad command-line arguments."""


class ComputerPlayer(Protocol):
    """What the hot-seat loop needs of a computer seat."""

    name: str

    def choose(self, game: Game) -> Move:
        """A legal move for the colour to move of ``game`` (the game is not over)."""
        ...


# -- moves typed by people ---------------------------------------------------


@functools.cache
def _anchored(table: PlacementTable) -> dict[tuple[int, int, Cell], int]:
    """Placement index by (piece, orientation, first cell)."""
    return {
        (table.piece[i], table.orientation[i], table.cells[i][0]): i for i in range(table.size)
    }


@functools.cache
def _examples(table: PlacementTable) -> dict[tuple[int, int], int]:
    """One placement index of each (piece, orientation), for drawing it."""
    found: dict[tuple[int, int], int] = {}
    for i in range(table.size):
        found.setdefault((table.piece[i], table.orientation[i]), i)
    return found


def piece_move(game: Game, name: str, orientation: str, cell: str) -> Move:
    """The move that puts piece ``name`` in its orientation number
    ``orientation`` (1-based, as ``pieces NAME`` draws them) with its first
    cell (lowest row, then leftmost) on ``cell``.

    Legality is not checked.  Raises ``ValueError`` (or ``KeyError`` for an
    unknown piece) naming what is wrong.
    """
    piece_set = game.variant.piece_set
    piece = piece_set[name]
    count = len(piece.orientations)
    try:
        number = int(orientation)
    except ValueError:
        raise ValueError(
            f"orientation {orientation!r} is not a number (piece {piece.name} has 1 to {count})"
        ) from None
    if not 1 <= number <= count:
        raise ValueError(f"piece {piece.name} has orientations 1 to {count}, not {number}")
    board = game.board
    target = board.parse(cell)
    table = game.table
    index = _anchored(table).get((piece.index, number - 1, target))
    if index is None:
        example = _examples(table)[(piece.index, number - 1)]
        first = board.points[table.cells[example][0]]
        here = board.points[target]
        if isinstance(board, TriangleBoard) and board.is_up(first) != board.is_up(here):
            way = "up" if board.is_up(first) else "down"
            other = "down" if way == "up" else "up"
            raise ValueError(
                f"the first triangle (@) of {piece.name} {number} points {way}, "
                f"but {board.name(target)} points {other}"
            )
        raise ValueError(
            f"{piece.name} {number} with its first cell (@) on {board.name(target)} "
            "does not fit on the board"
        )
    return table.move(index)


def parse_typed_move(game: Game, line: str) -> Move:
    """A move typed at the prompt: cells (``e9,d10,e10``; spaces around the
    commas allowed) or ``PIECE ORIENTATION CELL``.  Raises ``ValueError`` or
    ``KeyError`` naming what is wrong."""
    if "," in line:
        return game.parse_move(line.replace(" ", ""))
    words = line.split()
    if len(words) == 1:
        return game.parse_move(words[0])
    if len(words) == 3:
        return piece_move(game, *words)
    raise ValueError(
        f"{line.strip()!r} is neither a move (like 'e9,d10,e10' or 'F 3 e5') "
        "nor a command (type 'help')"
    )


def side_by_side(blocks: Sequence[tuple[str, list[str]]], width: int = 78) -> list[str]:
    """Lay out labelled drawings left to right, wrapping at ``width`` columns."""
    gap = 3
    out: list[str] = []
    row: list[tuple[str, list[str], int]] = []

    def flush() -> None:
        if not row:
            return
        if out:
            out.append("")
        out.append((" " * gap).join(label.ljust(w) for label, _, w in row).rstrip())
        height = max(len(lines) for _, lines, _ in row)
        for r in range(height):
            parts = [(lines[r] if r < len(lines) else "").ljust(w) for _, lines, w in row]
            out.append((" " * gap).join(parts).rstrip())
        row.clear()

    used = 0
    for label, lines in blocks:
        w = max([len(label)] + [len(line) for line in lines])
        if row and used + gap + w > width:
            flush()
            used = 0
        row.append((label, lines, w))
        used += w + (gap if used else 0)
    flush()
    return out


def orientation_lines(game: Game, name: str) -> list[str]:
    """Every orientation of a piece, drawn and numbered, with ``@`` on its
    first cell.  Raises ``KeyError`` for an unknown piece."""
    piece = game.variant.piece_set[name]
    table = game.table
    examples = _examples(table)
    blocks = []
    for o in range(len(piece.orientations)):
        cells = table.cells[examples[(piece.index, o)]]
        blocks.append((f"{o + 1}:", render.cells_text(game.board, cells, first=cells[0])))
    color = game.turn
    note = ""
    if color is not None and piece not in game.pieces_left(color):
        note = f" ({game.variant.colors[color].name} has already placed it)"
    head = (
        f"Piece {piece.name}, {len(piece.orientations)} orientations{note}. "
        f"Type e.g. '{piece.name} 1 CELL' to put the @ cell on CELL."
    )
    return [head, *side_by_side(blocks)]


def pieces_lines(game: Game) -> list[str]:
    """The pieces left of the colour to move, drawn in their first orientation."""
    color = game.turn
    if color is None:
        return ["The game is over."]
    table = game.table
    examples = _examples(table)
    blocks = []
    left = game.pieces_left(color)
    for piece in dict.fromkeys(left):
        cells = table.cells[examples[(piece.index, 0)]]
        copies = left.count(piece)
        label = piece.name if copies == 1 else f"{piece.name} x{copies}"
        blocks.append((label, render.cells_text(game.board, cells)))
    name = game.variant.colors[color].name
    head = f"{name}'s pieces left ({len(left)}); 'pieces NAME' shows a piece's orientations:"
    return [head, *side_by_side(blocks)]


def pieces_names(game: Game, color: int) -> str:
    """The names of the pieces ``color`` has left (``I3 x2`` for two copies)."""
    left = game.pieces_left(color)
    names = []
    for piece in dict.fromkeys(left):
        copies = left.count(piece)
        names.append(piece.name if copies == 1 else f"{piece.name}(x{copies})")
    return " ".join(names)


# -- scores ------------------------------------------------------------------

def rule_text(rule: str, bonus: bool = True) -> str:
    """A scoring rule in words (``bonus``: whether the variant has the bonus)."""
    extra = " +15 / +20 bonus" if bonus else " (no bonus)"
    return {
        "advanced": "advanced scoring: -1 per cell left," + extra,
        "basic": "basic scoring: cells left, lowest wins",
        "cells": "cells placed," + extra,
    }.get(rule, rule)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def outcome_lines(game: Game, rule: str = "advanced") -> list[str]:
    """Each colour's, seat's and team's score, the places and the winner
    (or the leader, before the end).  Raises ``ValueError`` for an unknown rule."""
    outcome = game.outcome(rule)
    v = game.variant
    seating = game.seating
    seats = seating.seats
    state = "game over" if outcome.finished else "game not over, scores so far"
    placed = len(game.move_stack)
    lines = [f"{v.name}: {placed} pieces placed, {state} ({rule_text(rule, v.bonus)})"]
    neutral = {c for s in seats if s.neutral for c in s.colors}
    width = max(len(f"{c.name} ({c.sgf})") for c in v.colors)
    for c in v.colors:
        note = ""
        if c.index == seating.shared_color:
            note = "  (shared colour, counts for nobody)"
        elif c.index in neutral:
            note = "  (neutral, counts for nobody)"
        label = f"{c.name} ({c.sgf})"
        lines.append(f"  {label:<{width}} {outcome.color_scores[c.index]:>5}{note}")
    several = seating.teams is not None or any(len(s.colors) > 1 for s in seats)
    if several:
        lines.append("Seats:")
        for i, s in enumerate(seats):
            if not s.neutral:
                lines.append(f"  seat {i + 1} ({s.name}): {outcome.seat_scores[i]}")

    def group_name(group: tuple[int, ...]) -> str:
        if len(group) == 1:
            return seats[group[0]].name
        return "team " + " + ".join(seats[i].name for i in group)

    lines.append("Places:")
    order = sorted(range(len(outcome.groups)), key=lambda g: (outcome.places[g], g))
    for g in order:
        place = _ordinal(outcome.places[g])
        lines.append(f"  {place:>4}  {group_name(outcome.groups[g])}: {outcome.group_scores[g]}")
    names = [group_name(outcome.groups[g]) for g in outcome.winners]
    if outcome.finished:
        if len(names) == 1:
            lines.append(f"Winner: {names[0]}")
        else:
            lines.append(f"Draw between {' and '.join(names)}")
    else:
        lines.append(f"Leading: {' and '.join(names)}")
    return lines


# -- the hot-seat game -------------------------------------------------------

HELP = """\
Type a move in one of two forms:
  cells            the cells the piece covers, separated by commas, in any
                   order or case: e9,d10,e10   (one cell, like e5, is the
                   single-cell piece)
  PIECE N CELL     piece PIECE in its orientation number N, placed with its
                   first cell on CELL: F 3 e5.  'pieces F' draws the
                   orientations of F with their numbers and marks the first
                   cell with @: it is the leftmost cell of the piece's lowest
                   row.  (On a triangle board the triangle named must point
                   the same way, up or down, as the @ triangle.)
Commands:
  pieces           draw the pieces the colour to move has left
  pieces NAME      draw every orientation of piece NAME, numbered
  legal            list the legal moves (only counted when there are many)
  board            draw the board again
  undo             take back the last move (and the computer's replies)
  hint             ask the computer for a move
  save FILE        write the game to FILE as a Blokus SGF record (.blksgf)
  quit             leave (asks again if moves are not saved)
  help             this text
A colour that cannot move passes automatically.  On the board each colour is
its initial, the last move in lower case, + marks a free starting cell.
Columns are letters, rows are numbers from 1 at the bottom."""

HINT_PLAYER = "level:5"
"""The player that answers ``hint`` (``greedy`` without the search kernel)."""

THINKING_NOTICE = 0.5
"""Seconds a computer seat thinks before the game says so."""

LEGAL_LIST_MAX = 40
"""``legal`` lists the moves up to this many, else counts them per piece."""


class HotSeat:
    """A game at one keyboard: draws the position, reads moves and commands
    from ``input`` and writes to ``output``.

    ``players`` maps seat indices to computer players; every other seat is
    played by the people at the keyboard.  ``rule`` is the scoring rule shown
    during and after the game; ``color`` turns ANSI colours on or off;
    ``saved_as`` names the file the game was loaded from, if any.
    """

    def __init__(
        self,
        game: Game,
        input: TextIO,
        output: TextIO,
        players: Mapping[int, ComputerPlayer] | None = None,
        rule: str = "advanced",
        color: bool = False,
        saved_as: str | None = None,
    ) -> None:
        if rule not in RULES:
            raise ValueError(f"unknown scoring rule {rule!r} (known: {', '.join(RULES)})")
        self.game = game
        self.input = input
        self.output = output
        self.players: dict[int, ComputerPlayer] = dict(players or {})
        """Who plays each seat: a computer player, or (absent) the people."""
        self.rule = rule
        self.color = color
        self.saved_as = saved_as
        """The file the game was last saved to (or loaded from)."""
        self._saved_moves: list[Move] | None = None if saved_as is None else game.move_stack
        self.hint_player: ComputerPlayer | None = None
        """Who answers ``hint`` (made on first use)."""
        self._quit_warned = False

    # -- output helpers --

    def say(self, *lines: str) -> None:
        for line in lines:
            self.output.write(line + "\n")
        self.output.flush()

    def _read(self, prompt: str) -> str | None:
        """One line from the input, or ``None`` at its end."""
        if self.input is sys.stdin and self.output is sys.stdout and sys.stdin.isatty():
            try:
                import readline  # noqa: F401  (line editing for input())
            except ImportError:  # pragma: no cover - platform without readline
                pass
            try:
                return input(prompt)
            except EOFError:
                return None
        self.output.write(prompt)
        self.output.flush()
        line = self.input.readline()
        if not line:
            return None
        line = line.rstrip("\r\n")
        if not _is_terminal(self.input):
            self.output.write(line + "\n")  # echo, so that a transcript reads well
        return line

    @property
    def unsaved(self) -> bool:
        """Whether pieces were placed since the game was last saved (or started)."""
        moves = self.game.move_stack
        if self._saved_moves is None:
            return bool(moves)
        return moves != self._saved_moves

    def seat_text(self, color: int) -> str:
        game = self.game
        seat = game.seat_of(color)
        s = game.seating.seats[seat]
        who = f" ({self.players[seat].name})" if seat in self.players else ""
        if color == game.seating.shared_color:
            return f"shared colour, played now by seat {seat + 1}: {s.name}{who}"
        return f"seat {seat + 1}: {s.name}{who}"

    def show_position(self) -> None:
        game = self.game
        self.say("", render.text(game, color=self.color))
        color = game.turn
        if color is None:
            return
        name = game.variant.colors[color].name
        scores = game.scores(self.rule)
        score_text = ", ".join(f"{c.name} {scores[c.index]}" for c in game.variant.colors)
        left = game.pieces_left(color)
        self.say(
            f"Move {game.move_number}: {name} to move ({self.seat_text(color)})",
            f"Scores ({self.rule}): {score_text}",
            f"{name}'s pieces left ({len(left)}): {pieces_names(game, color)}",
        )

    def _announce_passes(self, since: int) -> None:
        game = self.game
        if game.is_game_over():
            return
        for turn in game.history[since:]:
            if turn.move.is_pass:
                self.say(f"{game.variant.colors[turn.color].name} cannot move and passes")

    def _push(self, move: Move) -> None:
        """Play ``move``; raises ``ValueError`` (the rule broken) and changes nothing then."""
        game = self.game
        since = len(game.history) + 1
        game.push(move)
        self._quit_warned = False
        self._announce_passes(since)

    def _ending_note(self) -> str:
        if not self.game.move_stack:
            return "No piece was placed."
        if not self.unsaved:
            return f"The game is saved in {self.saved_as}."
        return (
            "The game was not saved ('save FILE' at the prompt keeps a game); "
            "here is its record:\n" + sgf.dumps(self.game).rstrip("\n")
        )

    # -- the loop --

    def run(self) -> int:
        """Play until the game ends, the people quit or the input ends.

        Returns an exit status: 0, or 130 after Ctrl-C.
        """
        game = self.game
        v = game.variant
        colors = " vs ".join(s.name for s in game.seating.seats)
        self.say(f"{v.name}: {colors}. Type a move, or 'help'.")
        redraw = True
        try:
            while not game.is_game_over():
                color = game.turn
                assert color is not None
                if redraw:
                    self.show_position()
                    redraw = False
                seat = game.seat_of(color)
                player = self.players.get(seat)
                if player is not None:
                    move = self._think(player, f"{v.colors[color].name} ({player.name})")
                    self.say(f"{v.colors[color].name} ({player.name}) plays {move}")
                    self._push(move)
                    redraw = True
                    continue
                line = self._read(f"{v.colors[color].name}> ")
                if line is None:
                    self.say("", "End of input: the game stops here. " + self._ending_note())
                    return 0
                action = self.handle(line)
                if action == "quit":
                    self.say("Bye.")
                    return 0
                redraw = action == "moved"
        except KeyboardInterrupt:
            self.say("", "Interrupted: the game stops here. " + self._ending_note())
            return 130
        self.say("", render.text(game, color=self.color), "", "Game over.")
        self.say(*outcome_lines(game, self.rule))
        return 0

    def handle(self, line: str) -> str:
        """Carry out one line of input.  Returns ``"moved"`` (the position
        changed), ``"quit"`` or ``"stay"``."""
        game = self.game
        words = line.split()
        if not words:
            return "stay"
        command = words[0].lower()
        if command in ("help", "?", "h"):
            self.say(HELP)
            return "stay"
        if command in ("quit", "exit", "q"):
            if self.unsaved and not self._quit_warned:
                self._quit_warned = True
                self.say(
                    "The game is not saved: type 'save FILE' to keep it, "
                    "or 'quit' again to leave without saving."
                )
                return "stay"
            return "quit"
        if command == "undo":
            return self._undo()
        if command == "board":
            return "moved"
        if command == "hint":
            self._hint()
            return "stay"
        if command == "legal":
            self._legal()
            return "stay"
        if command == "pieces":
            if len(words) > 2:
                self.say("usage: pieces [NAME]")
                return "stay"
            try:
                lines = pieces_lines(game) if len(words) == 1 else orientation_lines(game, words[1])
            except KeyError as e:
                self.say(f"error: {_message(e)}")
                return "stay"
            self.say(*lines)
            return "stay"
        if command == "save":
            path = line.strip()[len(words[0]):].strip()
            if not path:
                self.say("usage: save FILE")
                return "stay"
            self._save(path)
            return "stay"
        try:
            move = parse_typed_move(game, line)
            self._push(move)
        except (ValueError, KeyError) as e:
            self.say(f"error: {_message(e)}")
            return "stay"
        return "moved"

    def _undo(self) -> str:
        game = self.game
        if not game.move_stack:
            self.say("No move to take back.")
            return "stay"
        taken = []
        while True:
            color = next(t.color for t in reversed(game.history) if not t.move.is_pass)
            taken.append(f"{game.variant.colors[color].name} {game.pop()}")
            turn = game.turn
            if turn is None or not game.move_stack or game.seat_of(turn) not in self.players:
                break
        self._quit_warned = False
        self.say("Took back: " + "; ".join(taken))
        return "moved"

    def _think(self, player: ComputerPlayer, who: str) -> Move:
        """The computer's move; says that ``who`` is thinking when the
        choice takes more than :data:`THINKING_NOTICE` seconds (level 9
        thinks for about a minute)."""
        notice = threading.Timer(THINKING_NOTICE, self.say, (f"{who} is thinking...",))
        notice.daemon = True
        notice.start()
        try:
            return player.choose(self.game)
        finally:
            notice.cancel()
            notice.join()  # (a notice being written ends first)

    def _hint(self) -> None:
        if self.hint_player is None:
            from blokus.players import make_player

            try:
                self.hint_player = make_player(HINT_PLAYER)
            except ValueError:
                self.hint_player = make_player("greedy")
        move = self.hint_player.choose(self.game.copy())
        self.say(f"Hint ({self.hint_player.name}): {move}")

    def _legal(self) -> None:
        game = self.game
        moves = sorted(str(m) for m in game.legal_moves)
        name = game.color_to_move.name if game.color_to_move else "nobody"
        if len(moves) <= LEGAL_LIST_MAX:
            self.say(f"{len(moves)} legal moves for {name}:", *moves)
            return
        pieces = game.variant.piece_set.pieces
        per_piece = [0] * len(pieces)
        table = game.table
        for i in game.legal_moves.indices():
            per_piece[table.piece[i]] += 1
        counts = ", ".join(f"{p.name} {n}" for p, n in zip(pieces, per_piece, strict=True) if n)
        self.say(f"{len(moves)} legal moves for {name}; by piece: {counts}")

    def _save(self, path: str) -> None:
        try:
            sgf.dump(self.game, path)
        except (OSError, ValueError) as e:
            self.say(f"error: cannot save: {_message(e)}")
            return
        self.saved_as = path
        self._saved_moves = self.game.move_stack
        self.say(f"Saved to {path}.")


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def play(
    game: Game,
    input: TextIO,
    output: TextIO,
    players: Mapping[int, ComputerPlayer] | None = None,
    rule: str = "advanced",
    color: bool | None = None,
    saved_as: str | None = None,
) -> int:
    """Play ``game`` at one keyboard (see :class:`HotSeat`); returns the exit
    status.  Neutral seats without a player get a random mover.  ``color``
    ``None``: ANSI colours when :func:`render.use_color` allows them on ``output``."""
    seats: dict[int, ComputerPlayer] = dict(players or {})
    for i, seat in enumerate(game.seating.seats):
        if seat.neutral and i not in seats:
            seats[i] = RandomPlayer()
    if color is None:
        color = render.use_color(output)
    return HotSeat(game, input, output, seats, rule, color, saved_as).run()


# -- the commands ------------------------------------------------------------


def _message(e: BaseException) -> str:
    """An exception as one line (``KeyError`` without its quotes)."""
    if isinstance(e, KeyError) and e.args:
        text = str(e.args[0])
    elif isinstance(e, OSError) and e.strerror:
        text = f"{e.filename}: {e.strerror}" if e.filename else e.strerror
    else:
        text = str(e) or type(e).__name__
    return " ".join(text.split())


def _load(path: str) -> sgf.GameRecord:
    return sgf.load(path)


def _position(record: sgf.GameRecord, move: int | None) -> Game:
    """The game before move ``move`` (1-based; ``None``: after the last move)."""
    if move is None:
        return record.game()
    last = record.num_moves + 1
    if not 1 <= move <= last:
        raise UsageError(f"--move must be between 1 and {last} for this record, not {move}")
    return record.game(move - 1)


def _cmd_play(args: argparse.Namespace) -> int:
    if args.load is not None:
        record = _load(args.load)
        if args.variant is not None and find_variant(args.variant) != record.variant:
            raise UsageError(
                f"--variant {args.variant} does not match the record ({record.variant.id})"
            )
        game = record.game(seating=args.seating)
        return play(game, sys.stdin, sys.stdout, _computer_seats(game, args.seat),
                    rule=args.scoring, saved_as=args.load)
    # Seats without a computer player are people at the keyboard.
    game = Game(args.variant or "duo", args.seating)
    return play(game, sys.stdin, sys.stdout, _computer_seats(game, args.seat),
                rule=args.scoring)


def _computer_seats(game: Game, specs: Sequence[str]) -> dict[int, ComputerPlayer]:
    """``--seat N=SPEC`` options as computer players by seat index."""
    from blokus.players import make_player

    seats: dict[int, ComputerPlayer] = {}
    names = ", ".join(f"{i + 1}={s.name}" for i, s in enumerate(game.seating.seats))
    for spec in specs:
        number, eq, player = spec.partition("=")
        if not eq or not number.strip().isdigit() or not player.strip():
            raise UsageError(f"--seat wants N=PLAYER, like 2=level:5, not {spec!r}")
        n = int(number)
        if not 1 <= n <= len(game.seating.seats):
            raise UsageError(f"no seat {n} in this game (seats: {names})")
        if n - 1 in seats:
            raise UsageError(f"--seat {n} is given twice")
        seats[n - 1] = make_player(player.strip(), seed=None)
    if seats and len(seats) == len(game.seating.seats):
        raise UsageError("every seat is a computer: use 'blokus match' to watch computers play")
    if any(runs_search(p) for p in seats.values()):
        from blokus.players.mcts import warm_up

        print("Preparing the computer player (compiled once, then cached) ...", flush=True)
        warm_up(game.variant.id)
    return seats


def _cmd_show(args: argparse.Namespace) -> int:
    game = _position(_load(args.record), args.move)
    if args.svg is not None:
        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(render.svg(game, attach_points=args.attach_points) + "\n")
    color = False if args.no_color else None
    print(render.text(game, color=color))
    print(f"Move {game.move_number}: " + (
        "game over" if game.color_to_move is None else f"{game.color_to_move.name} to move"
    ))
    if args.svg is not None:
        print(f"SVG written to {args.svg}")
    return 0


def _cmd_legal(args: argparse.Namespace) -> int:
    game = _position(_load(args.record), args.move)
    color = game.turn if args.color is None else game.variant.color(args.color)
    moves = [] if color is None else sorted(str(m) for m in game.legal_moves_of(color))
    if args.count:
        print(len(moves))
    elif moves:
        print("\n".join(moves))
    return 0


def _cmd_score(args: argparse.Namespace) -> int:
    game = _load(args.record).game()
    print("\n".join(outcome_lines(game, args.scoring)))
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        from blokus.web.server import run as run_server
    except ImportError as e:
        raise UsageError(f"the web app needs its dependencies ({e.name}): "
                         "pip install 'blokus[web]'") from None
    run_server(host=args.host, port=args.port, open_browser=args.open)
    return 0


def _cmd_gtp(args: argparse.Namespace) -> int:
    from blokus.gtp import GtpEngine, run
    from blokus.players import make_player

    spec = f"level:{args.level}"
    if args.threads is not None:
        spec += f",threads={args.threads}"
    make_player(spec, 0)  # a bad level or a missing kernel is an error now
    engine = GtpEngine(args.game, lambda seed: make_player(spec, seed), seed=args.seed)
    run(engine, sys.stdin, sys.stdout)
    return 0


def _cmd_match(args: argparse.Namespace) -> int:
    from pathlib import Path

    from blokus.match import run_match

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    # SIGTERM (kill, timeout) stops a match as Ctrl-C does: with its summary.
    previous = signal.signal(signal.SIGTERM, stop)
    try:
        summary = run_match(
            args.player_a, args.player_b, args.variant, args.games, workers=args.workers,
            out=None if args.out is None else Path(args.out), seed=args.seed,
            seating=args.seating, move_timeout=args.move_timeout,
        )
    finally:
        signal.signal(signal.SIGTERM, previous)
    print(summary.report())
    if args.out is not None:
        print(f"  records in {args.out}")
    return 130 if summary.planned is not None else 0


def _cmd_tally(args: argparse.Namespace) -> int:
    from blokus.match import tally

    summary, left_out = tally(args.records, a=args.a, seating=args.seating)
    print(summary.report(times=False))
    if left_out:
        print(f"  {len(left_out)} records of games ended by an error left out:")
        print("\n".join(f"    {line}" for line in left_out[:10]))
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    import json

    from blokus.bench import bench

    positions = None
    if args.record is not None:
        positions = [_position(_load(args.record), args.move)]
    elif args.move is not None:
        raise UsageError("--move needs --record")
    threads = [args.threads] if args.threads else [1, 2]
    results = bench(args.variant, args.seconds, threads, positions)
    if not args.json:
        print(f"{'variant':10} {'threads':>7} {'random games/s':>15} {'MCTS sims/s':>12}")
    for r in results:
        if not args.json:
            print(f"{r.variant:10} {r.threads:7} {r.random_games_per_s:15,.0f} "
                  f"{r.mcts_sims_per_s:12,.0f}")
    if args.json:
        top = results[-1].as_dict()
        top["by_threads"] = [r.as_dict() for r in results]
        print(json.dumps(top))
    return 0


class _Parser(argparse.ArgumentParser):
    """An argument parser that raises :class:`UsageError` instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text} is not at least 1")
    return n


def _move_number(text: str) -> int:
    try:
        return _positive(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"{text} is not a move number (they start at 1)") from None


def _positive_seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not seconds > 0 or seconds == float("inf"):
        raise argparse.ArgumentTypeError(f"{text} is not a finite number of seconds above 0")
    return seconds


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``blokus`` command."""
    variants = ", ".join(VARIANTS)
    seatings = "; ".join(
        f"{v.id}: {', '.join(s.id for s in v.seatings)}" for v in VARIANTS.values()
    )
    parser = _Parser(
        prog=PROG,
        description="Blokus: play in the browser or the terminal, show, list and score "
        "game records (Blokus SGF, .blksgf, as Pentobi writes them), run the engine "
        "(GTP) and matches.",
        epilog="Every command has --help.  Errors: one line on stderr, exit status 2.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser(
        "serve",
        help="start the web app (play in the browser)",
        description="Start the web app on a local address and print it; open it in a "
        "browser to play any variant against the computer or with people.",
    )
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default: 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    p.set_defaults(run=_cmd_serve)

    p = sub.add_parser(
        "play",
        help="play a game at one keyboard (hot seat)",
        description=textwrap.fill(
            "Play a game at one keyboard: each turn the board, the scores and the pieces "
            "left are shown and the colour to move types a move.", 79
        ),
        epilog="At the prompt:\n" + HELP + "\n\n" + textwrap.fill(
            f"Seatings by variant: {seatings}.", 79
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--variant", metavar="ID", help=f"{variants} (default: duo)")
    p.add_argument("--seating", metavar="ID", help="who plays which colour (default: the "
                   "variant's first seating)")
    p.add_argument("--scoring", choices=RULES, default="advanced",
                   help="scoring rule shown during and after the game (default: advanced)")
    p.add_argument("--load", metavar="RECORD", help="continue the game of a .blksgf record")
    p.add_argument("--seat", action="append", default=[], metavar="N=PLAYER",
                   help="seat N (from 1, in turn order) is played by the computer: "
                   "random, greedy, level:1 .. level:9, mcts:sims=N; repeatable")
    p.set_defaults(run=_cmd_play)

    p = sub.add_parser(
        "show",
        help="draw the position of a record",
        description="Draw the position of a game record before move N (moves counted from 1 "
        "as SGF does: after N-1 placed pieces; default: after the last move).",
    )
    p.add_argument("record", metavar="RECORD", help="a .blksgf file")
    p.add_argument("--move", type=_move_number, metavar="N", help="show the position before move N")
    p.add_argument("--svg", metavar="FILE", help="also write the position as SVG to FILE")
    p.add_argument("--attach-points", action="store_true",
                   help="in the SVG, mark the attach points of the colour to move")
    p.add_argument("--no-color", action="store_true", help="no ANSI colours")
    p.set_defaults(run=_cmd_show)

    p = sub.add_parser(
        "legal",
        help="list the legal moves in a position of a record",
        description="List the legal moves of a colour before move N of a record, one per "
        "line in canonical notation, sorted as strings.",
    )
    p.add_argument("record", metavar="RECORD", help="a .blksgf file")
    p.add_argument("--move", type=_move_number, metavar="N",
                   help="the position before move N (default: after the last move)")
    p.add_argument("--color", metavar="C", help="SGF colour id (B, W, 1-4) or colour name "
                   "(default: the colour to move)")
    p.add_argument("--count", action="store_true", help="print only the number of moves")
    p.set_defaults(run=_cmd_legal)

    p = sub.add_parser(
        "score",
        help="score a record",
        description="Each colour's, seat's and team's score and place, and the winner, "
        "at the end of a record (or so far, if the game is not over).",
    )
    p.add_argument("record", metavar="RECORD", help="a .blksgf file")
    p.add_argument("--scoring", choices=RULES, default="advanced",
                   help="scoring rule (default: advanced)")
    p.set_defaults(run=_cmd_score)

    p = sub.add_parser(
        "gtp",
        help="run the engine on stdin/stdout (GTP as Pentobi speaks it)",
        description="Answer GTP commands on stdin/stdout the way Pentobi's engine does "
        "(set_game, play, genmove, all_legal, final_score, ...).  See docs/gtp.md.",
    )
    p.add_argument("--game", default="classic", metavar="ID",
                   help=f"variant to start with: {variants} (default: classic)")
    p.add_argument("--level", type=int, default=5, choices=range(1, 10), metavar="N",
                   help="playing level 1-9 (default: 5)")
    p.add_argument("--seed", type=int, help="random seed (reproducible play)")
    p.add_argument("--threads", type=_positive, metavar="N", help="search threads")
    p.set_defaults(run=_cmd_gtp)

    p = sub.add_parser(
        "match",
        help="play two players against each other",
        description="Play PLAYER_A against PLAYER_B: pairs of games with the seats "
        "swapped, in parallel worker processes; prints wins, win rate with a 95% "
        "confidence interval, the Elo difference and each side's thinking time per "
        "move.  A player is random, greedy, "
        "level:1..9, mcts:sims=N[,seconds=S][,threads=T], gtp:'COMMAND LINE' for an external "
        "GTP engine (such as Pentobi's) or py:MODULE:FUNCTION, a function of an importable "
        "module that takes a seed and returns a player (a trained policy, say).  "
        "Ctrl-C (or SIGTERM) stops a match early with the summary of the games "
        "finished (exit status 130).",
    )
    p.add_argument("player_a", metavar="PLAYER_A")
    p.add_argument("player_b", metavar="PLAYER_B")
    p.add_argument("--variant", default="duo", metavar="ID", help="variant (default: duo)")
    p.add_argument("--seating", metavar="ID", help="seating (default: the variant's first)")
    p.add_argument("--games", type=_positive, default=10, metavar="N",
                   help="games (rounded up to even; default: 10)")
    p.add_argument("--workers", type=_positive, default=1, metavar="K",
                   help="parallel worker processes (default: 1)")
    p.add_argument("--out", metavar="DIR", help="save every game as .blksgf in DIR")
    p.add_argument("--seed", type=int, default=1, help="seed of the first game pair")
    p.add_argument("--move-timeout", type=_positive_seconds, metavar="S",
                   help="stop a GTP engine that takes longer than S seconds over one move; "
                   "it loses that game (default: no limit)")
    p.set_defaults(run=_cmd_match)

    p = sub.add_parser(
        "tally",
        help="summarise the records of matches (pool several runs)",
        description="Summarise the game records that matches saved with --out, as the "
        "match did: one run's folder, or several runs pooled.  The sides are told apart "
        "by the players' names in the records.  Games an error ended are left out (the "
        "records do not say who forfeited), and thinking times are not kept in records.",
    )
    p.add_argument("records", nargs="+", metavar="RECORD_OR_FOLDER",
                   help=".blksgf files, or folders of them")
    p.add_argument("--a", metavar="NAME", action="append", help="the player to count as A "
                   "(default: the first seat's player in the first record); give it again "
                   "to pool runs in which A had other names, against the same B")
    p.add_argument("--seating", metavar="ID", help="the matches' seating (default: the "
                   "variant's first)")
    p.set_defaults(run=_cmd_tally)

    p = sub.add_parser(
        "bench",
        help="measure the speed of the search kernel and the tree search",
        description="Random complete games per second in the compiled kernel and MCTS "
        "simulations per second, with one and two threads.",
    )
    p.add_argument("--variant", default="duo", metavar="ID", help="variant (default: duo)")
    p.add_argument("--seconds", type=_positive_seconds, default=3.0,
                   help="seconds per figure (default 3)")
    p.add_argument("--threads", type=_positive, metavar="T",
                   help="only this thread count (default: 1 and 2)")
    p.add_argument("--record", metavar="FILE", help="search from a position of this record")
    p.add_argument("--move", type=_move_number, metavar="N",
                   help="with --record: the position before move N")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object on the last line")
    p.set_defaults(run=_cmd_bench)
    return parser


def _quiet_broken_pipe() -> None:
    """After the reader of stdout went away: send further output nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``blokus`` command with ``argv`` (default: ``sys.argv[1:]``);
    returns the exit status: 0, 2 for any bad argument or record, 130 after
    Ctrl-C."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        run: Callable[[argparse.Namespace], int] = args.run
        return run(args)
    except SystemExit as e:  # --help
        return e.code if isinstance(e.code, int) else 0
    except BrokenPipeError:
        _quiet_broken_pipe()
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except (UsageError, ValueError, KeyError, OSError) as e:
        print(f"{PROG}: error: {_message(e)}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
