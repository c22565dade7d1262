"""The engine protocol: GTP as Pentobi speaks it (RULES.md section 7).

The engine is *sans-IO*: :meth:`GtpEngine.handle_line` takes one line and
returns the full answer (``= result`` or ``? message``, then an empty line) and
whether the session ends.  :func:`run` is the loop over a pair of streams.
Every error, from a malformed line to an illegal move, becomes a ``? message``
answer and changes nothing.  The commands and their argument forms are those of
Pentobi's engine, so that controllers written for Pentobi can drive this one;
see ``docs/gtp.md``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TextIO

from blokus import __version__
from blokus.game import Game
from blokus.notation import IllegalMoveError, InvalidMoveError
from blokus.players import Player, make_player
from blokus.variants import VARIANTS, variant

__all__ = ["GtpEngine", "GtpError", "final_score", "run"]


class GtpError(Exception):
    """A command that fails; its message is the text after ``?``."""


PlayerFactory = Callable[[int | None], Player]


def final_score(game: Game) -> str:
    """The score as Pentobi's ``final_score`` (and SGF ``RE``) writes it, from
    points = cells placed + bonus: with two seats ``B+n``, ``W+n`` or ``0``
    (seat 1 is B, its colours added up), otherwise every colour's points."""
    points = game.scores("cells")
    seats = game.seating.seats
    if len(seats) == 2:
        a = sum(points[c] for c in seats[0].colors)
        b = sum(points[c] for c in seats[1].colors)
        if a == b:
            return "0"
        return f"B+{a - b}" if a > b else f"W+{b - a}"
    return " ".join(str(p) for p in points)


class GtpEngine:
    """A GTP engine around a :class:`~blokus.game.Game` and a player.

    ``player_factory(seed)`` makes the player that answers ``genmove``; it is
    called again after ``set_random_seed``.
    """

    def __init__(
        self,
        game: str = "classic",
        player_factory: PlayerFactory | None = None,
        seed: int | None = None,
        name: str = "blokus",
    ) -> None:
        self.game = Game(variant(game))
        self._factory: PlayerFactory = player_factory or (lambda s: make_player("greedy", s))
        self._seed = seed
        self._player: Player | None = None
        self._name = name
        self.commands: dict[str, Callable[[list[str]], str]] = {
            "all_legal": self.cmd_all_legal,
            "clear_board": self.cmd_clear_board,
            "final_score": self.cmd_final_score,
            "genmove": self.cmd_genmove,
            "g": self.cmd_genmove,
            "known_command": self.cmd_known_command,
            "list_commands": self.cmd_list_commands,
            "loadsgf": self.cmd_loadsgf,
            "name": lambda args: self._name,
            "play": self.cmd_play,
            "p": self.cmd_play,
            "protocol_version": lambda args: "2",
            "quit": lambda args: "",
            "reg_genmove": self.cmd_reg_genmove,
            "savesgf": self.cmd_savesgf,
            "set_game": self.cmd_set_game,
            "set_random_seed": self.cmd_set_random_seed,
            "showboard": self.cmd_showboard,
            "undo": self.cmd_undo,
            "version": lambda args: __version__,
        }

    # -- the protocol --------------------------------------------------------

    def handle_line(self, line: str) -> tuple[str, bool]:
        """Answer one line; returns ``(answer, end)``.  Empty and comment lines
        answer ``""``."""
        text = line.split("#", 1)[0].replace("\t", " ").strip()
        text = "".join(ch for ch in text if ch >= " " or ch == "\n")
        if not text:
            return "", False
        parts = text.split()
        ident = ""
        if parts[0].isdigit():
            ident = parts.pop(0)
            if not parts:
                return f"?{ident} missing command\n\n", False
        name, args = parts[0].lower(), parts[1:]
        handler = self.commands.get(name)
        if handler is None:
            return f"?{ident} unknown command: {name}\n\n", False
        try:
            result = handler(args)
        except GtpError as e:
            return f"?{ident} {e}\n\n", False
        except (IllegalMoveError, InvalidMoveError, ValueError, KeyError, OSError) as e:
            message = e.args[0] if e.args else str(e)
            if isinstance(e, OSError):  # (its first argument is the error number)
                message = f"{e.filename}: {e.strerror}" if e.filename else str(e.strerror or e)
            return f"?{ident} {message}\n\n", False
        sep = "\n" if "\n" in result else " "
        answer = f"={ident}{sep}{result}".rstrip(" ") if result else f"={ident}"
        return answer + "\n\n", name == "quit"

    # -- helpers -------------------------------------------------------------

    @property
    def player(self) -> Player:
        if self._player is None:
            self._player = self._factory(self._seed)
        return self._player

    def _color(self, args: list[str], index: int = 0) -> int:
        if len(args) <= index:
            raise GtpError("missing colour argument")
        try:
            return self.game.variant.color(args[index])
        except ValueError as e:
            raise GtpError(str(e)) from None

    def _expect(self, args: list[str], count: int, usage: str) -> None:
        if len(args) != count:
            raise GtpError(f"usage: {usage}")

    # -- commands --------------------------------------------------------------

    def cmd_set_game(self, args: list[str]) -> str:
        name = " ".join(args)
        try:
            v = variant(name)
        except KeyError:
            known = ", ".join(v.name for v in VARIANTS.values())
            raise GtpError(f"unknown game {name!r} (known: {known})") from None
        self.game = Game(v)
        return ""

    def cmd_clear_board(self, args: list[str]) -> str:
        self.game = Game(self.game.variant, self.game.seating)
        return ""

    def cmd_play(self, args: list[str]) -> str:
        if len(args) < 2:
            raise GtpError("usage: play COLOR MOVE")
        color = self._color(args)
        move = self.game.parse_move(",".join(args[1:]))
        game = self.game
        if move.is_pass:
            if game.has_moves(color) and game.turn == color:
                raise GtpError(f"{game.colors[color].name} has a legal move and cannot pass")
            return ""
        if game.turn != color:
            raise GtpError(self._not_turn(color))
        game.push(move)
        return ""

    def _not_turn(self, color: int) -> str:
        game = self.game
        if game.turn is None:
            return "the game is over"
        return f"it is {game.colors[game.turn].name}'s turn, not {game.colors[color].name}'s"

    def _generate(self, args: list[str]) -> tuple[int, str]:
        self._expect(args, 1, "genmove COLOR")
        color = self._color(args)
        game = self.game
        if game.turn != color:
            if not game.has_moves(color) or game.turn is None:
                return color, "pass"
            raise GtpError(self._not_turn(color))
        return color, str(self.player.choose(game.copy()))

    def cmd_genmove(self, args: list[str]) -> str:
        color, move = self._generate(args)
        if move != "pass":
            self.game.push(move)
        return move

    def cmd_reg_genmove(self, args: list[str]) -> str:
        return self._generate(args)[1]

    def cmd_all_legal(self, args: list[str]) -> str:
        self._expect(args, 1, "all_legal COLOR")
        color = self._color(args)
        return "\n".join(str(m) for m in self.game.legal_moves_of(color))

    def cmd_undo(self, args: list[str]) -> str:
        try:
            self.game.pop()
        except IndexError:
            raise GtpError("cannot undo: no move played") from None
        return ""

    def cmd_final_score(self, args: list[str]) -> str:
        return final_score(self.game)

    def cmd_showboard(self, args: list[str]) -> str:
        from blokus.render import text

        return "\n" + text(self.game, color=False)

    def cmd_loadsgf(self, args: list[str]) -> str:
        if not 1 <= len(args) <= 2:
            raise GtpError("usage: loadsgf FILE [MOVE_NUMBER]")
        from blokus import sgf

        record = sgf.load(args[0])
        moves = None
        if len(args) == 2:
            if not args[1].isdigit() or int(args[1]) < 1:
                raise GtpError(f"invalid move number {args[1]!r}")
            moves = int(args[1]) - 1
        self.game = record.game(moves)
        return ""

    def cmd_savesgf(self, args: list[str]) -> str:
        self._expect(args, 1, "savesgf FILE")
        from blokus import sgf

        try:
            sgf.dump(self.game, args[0])
        except OSError as e:
            raise GtpError(f"{args[0]}: cannot write the file: {e.strerror or e}") from None
        return ""

    def cmd_set_random_seed(self, args: list[str]) -> str:
        self._expect(args, 1, "set_random_seed N")
        try:
            self._seed = int(args[0])
        except ValueError:
            raise GtpError(f"invalid seed {args[0]!r}") from None
        random.seed(self._seed)
        self._player = None
        return ""

    def cmd_known_command(self, args: list[str]) -> str:
        self._expect(args, 1, "known_command NAME")
        return "true" if args[0].lower() in self.commands else "false"

    def cmd_list_commands(self, args: list[str]) -> str:
        return "\n".join(sorted(self.commands))


def run(engine: GtpEngine, stdin: TextIO, stdout: TextIO) -> None:
    """Answer lines from ``stdin`` until ``quit`` or the end of input."""
    for line in stdin:
        answer, end = engine.handle_line(line)
        if answer:
            stdout.write(answer)
            stdout.flush()
        if end:
            return
