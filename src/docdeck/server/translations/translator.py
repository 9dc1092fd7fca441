"""The translator a translation job runs through, and how one is chosen.

The sandbox ships no engine that claims to translate. A job runs only when one is configured:

- `DOCDECK_TRANSLATOR_COMMAND`: a command line (split as a shell would, never run through a
  shell) that reads one page's markdown on stdin and writes its translation on stdout. The
  target language is its last argument and `DOCDECK_TARGET_LANGUAGE`, the source language
  `DOCDECK_SOURCE_LANGUAGE`, the instructions (plain text) `DOCDECK_TRANSLATION_INSTRUCTIONS`.
  A non-zero exit, or more than `PAGE_TIMEOUT` seconds, fails the page.
- `DOCDECK_TRANSLATOR=pseudo`: pseudo-localization (accented letters, brackets, a little
  padding), the i18n testing technique: text that is visibly not a translation, for trying
  the workflow and finding strings that would not be translated or would overflow.

Without either the job stays `pending`, and the translation says why (`waiting_reason`).
Tests set `app.state.translator` directly.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from dataclasses import dataclass
from typing import Protocol

PAGE_TIMEOUT = 120.0
MAX_OUTPUT = 5_000_000

NO_TRANSLATOR = (
    "no translator is configured: the sandbox ships no translation engine. Set"
    " DOCDECK_TRANSLATOR_COMMAND to a command that translates markdown (stdin to stdout), or"
    " DOCDECK_TRANSLATOR=pseudo for pseudo-localized text, and restart the sandbox"
)


class TranslatorError(Exception):
    """Why a page could not be translated."""


class Translator(Protocol):
    @property
    def name(self) -> str: ...

    def translate(self, markdown: str, source: str, target: str, instructions: str) -> str: ...


@dataclass(frozen=True)
class CommandTranslator:
    argv: tuple[str, ...]
    timeout: float = PAGE_TIMEOUT
    name: str = "command"

    def translate(self, markdown: str, source: str, target: str, instructions: str) -> str:
        env = {
            **os.environ,
            "DOCDECK_TARGET_LANGUAGE": target,
            "DOCDECK_SOURCE_LANGUAGE": source,
            "DOCDECK_TRANSLATION_INSTRUCTIONS": instructions,
        }
        try:
            done = subprocess.run(
                [*self.argv, target],
                input=markdown.encode(),
                capture_output=True,
                timeout=self.timeout,
                env=env,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise TranslatorError(f"the translator took more than {self.timeout:g} s") from None
        except OSError as error:
            raise TranslatorError(f"the translator could not be started: {error}") from None
        if done.returncode != 0:
            why = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["no message"]
            raise TranslatorError(f"the translator exited with {done.returncode}: {why[0][:200]}")
        if len(done.stdout) > MAX_OUTPUT:
            raise TranslatorError("the translator wrote more than the sandbox keeps")
        return done.stdout.decode("utf-8", errors="replace")


_ACCENTS = str.maketrans("AaCcEeIiNnOoUuYy", "ÅåÇçÉéÎîÑñÖöÛûÝý")
_KEEP = re.compile(r"(```.*?```|`[^`]*`|\]\([^)]*\)|<[^>]+>|\{\{.*?\}\})", re.DOTALL)


@dataclass(frozen=True)
class PseudoTranslator:
    """Pseudo-localization, not translation: every prose line becomes `⟦Åççéñţéð ţéxţ···⟧`;
    code, link targets, HTML and variables are kept as they are."""

    name: str = "pseudo"

    def _line(self, line: str) -> str:
        prefix = re.match(r"^\s*(?:#{1,6}\s|[-*+]\s|\d+\.\s|>\s?)?", line)
        head = prefix.group(0) if prefix else ""
        body = line[len(head) :]
        if not body.strip():
            return line
        parts = _KEEP.split(body)
        out = "".join(p if _KEEP.fullmatch(p) else p.translate(_ACCENTS) for p in parts)
        return f"{head}⟦{out}{'·' * max(1, len(body) // 3)}⟧"

    def translate(self, markdown: str, source: str, target: str, instructions: str) -> str:
        lines, fenced = [], False
        for line in markdown.splitlines():
            if line.lstrip().startswith("```"):
                fenced = not fenced
                lines.append(line)
            else:
                lines.append(line if fenced else self._line(line))
        return "\n".join(lines) + ("\n" if markdown.endswith("\n") else "")


def configured_translator(environ: dict[str, str] | None = None) -> Translator | None:
    env = os.environ if environ is None else environ
    command = env.get("DOCDECK_TRANSLATOR_COMMAND", "").strip()
    if command:
        return CommandTranslator(tuple(shlex.split(command)))
    if env.get("DOCDECK_TRANSLATOR", "").strip().lower() == "pseudo":
        return PseudoTranslator()
    return None
