"""Translations of a space into another language."""

from typing import Any, Literal

from pydantic import Field

from docdeck.models._base import RequestBody, Resource, Timestamp
from docdeck.models.content import JSONDocument

TranslationStatus = Literal["pending", "running", "completed"]
TranslationLanguage = Literal[
    "en", "fr", "de", "es", "it", "pt", "ru", "ja", "zh", "ko", "ar", "hi",
    "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th",
    "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl",
]  # fmt: skip
"""The platform's 36 languages (0.130.0; 0.202.0 adds `pt-br`, `zh-tw`, `yue`)."""


class TranslationSource(Resource):
    space: str
    language: TranslationLanguage | str


class TranslationResult(Resource):
    space: str
    revision: str


class TranslationStats(Resource):
    runs: int = 0
    totalWords: int = 0
    totalPages: int = 0
    totalDuration: int = 0
    latestRunDuration: int = 0
    latestPages: int = 0
    latestWords: int = 0


class TranslationPermissions(Resource):
    view: bool
    edit: bool


class TranslationUrls(Resource):
    location: str


class Translation(Resource):
    object: Literal["translation"] = "translation"
    id: str
    status: TranslationStatus | str
    source: TranslationSource
    language: TranslationLanguage | str
    instructions: JSONDocument | None = None
    result: TranslationResult | None = None
    createdAt: Timestamp
    updatedAt: Timestamp
    stats: TranslationStats = Field(default_factory=TranslationStats)
    permissions: TranslationPermissions
    urls: TranslationUrls


class InstructionsDocument(RequestBody):
    """A JSON document (`{object: "document", data, nodes}`); blocks are not checked one by
    one here (the platform has dozens of kinds), but must be objects."""

    object: Literal["document"]
    data: dict[str, Any]
    nodes: list[dict[str, Any]]


class TranslationSourceBody(RequestBody):
    space: str
    language: TranslationLanguage


class TranslationCreate(RequestBody):
    language: TranslationLanguage
    source: TranslationSourceBody
    instructions: InstructionsDocument | None = None


class TranslationUpdate(RequestBody):
    instructions: InstructionsDocument
