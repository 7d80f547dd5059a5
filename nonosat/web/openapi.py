"""The API's OpenAPI 3.1 description (served at /openapi.json), made from the endpoints' table."""

from __future__ import annotations

from typing import Any

from nonosat.web.options import ENDPOINTS, Endpoint
from nonosat.web.settings import WebSettings

ERROR = {"$ref": "#/components/schemas/Error"}
PUZZLE = {"$ref": "#/components/schemas/Puzzle"}


def describe(settings: WebSettings) -> dict[str, Any]:
    from nonosat import __version__

    paths: dict[str, Any] = {name: {"post": operation(spec, settings)} for name, spec in ENDPOINTS.items()}
    paths = {f"/api/{name}": value for name, value in paths.items()}
    paths["/api/formats"] = {"get": {"summary": "The formats the API reads and writes", "responses": ok_json()}}
    paths["/api/status"] = {"get": {"summary": "The server's limits and its workers", "responses": ok_json()}}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "nonosat",
            "version": __version__,
            "description": "Solve nonograms, prove them unique, rate, explain, and make them from pictures. "
            "Every answer has the shape of the command line's JSON answers. Limits: uploads of "
            f"{settings.max_upload_bytes} bytes, {settings.max_side} cells a side, {settings.max_timeout:g} s a "
            f"request, {settings.workers} at once and {settings.max_queue} waiting.",
        },
        "paths": paths,
        "components": {
            "schemas": {
                "Error": {
                    "type": "object",
                    "properties": {"error": {"type": "string"}},
                    "required": ["error"],
                },
                "Puzzle": {
                    "type": "object",
                    "description": "nonosat's JSON puzzle: rows and cols of clues; optional palette, goal, title",
                    "properties": {
                        "rows": {"type": "array"},
                        "cols": {"type": "array"},
                        "palette": {"type": "array"},
                        "goal": {"type": "array"},
                    },
                    "required": ["rows", "cols"],
                },
            }
        },
    }


def ok_json() -> dict[str, Any]:
    return {"200": {"description": "OK", "content": {"application/json": {"schema": {"type": "object"}}}}}


def operation(spec: Endpoint, settings: WebSettings) -> dict[str, Any]:
    fields: dict[str, Any] = {"file": {"type": "string", "format": "binary"}}
    upload = {"type": "object", "properties": fields, "required": ["file"]}
    if spec.name == "hint":
        fields["state"] = {"type": "string", "description": "The grid so far: rows of # . ?"}
    content: dict[str, Any] = {"multipart/form-data": {"schema": upload}}
    if spec.name == "hint":
        state = {"type": "array", "items": {"type": "string"}, "description": "The grid so far: rows of # . ?"}
        hint = {"type": "object", "properties": {"puzzle": PUZZLE, "state": state}, "required": ["puzzle", "state"]}
        content["application/json"] = {"schema": hint}
    elif spec.takes != "picture":
        content["application/json"] = {"schema": PUZZLE}
    answers = {"schema": {"type": "object"}} if spec.gives == "application/json" else {}
    gives = [spec.gives, "image/png"] if spec.gives == "image/svg+xml" else [spec.gives]
    errors = {
        "400": "Bad input: what was wrong, as the command line says it",
        "413": f"The upload is over {settings.max_upload_bytes} bytes",
        "422": "Nothing to give: no puzzle within the budget, or nothing to draw",
        "503": "Busy (see Retry-After), or the worker died",
    }
    return {
        "summary": spec.summary,
        "operationId": spec.name,
        "parameters": [
            {
                "name": parameter.name,
                "in": "query",
                "required": parameter.name == "to",
                "description": parameter.help,
                "schema": parameter.schema,
            }
            for parameter in spec.parameters
        ],
        "requestBody": {"required": True, "content": content},
        "responses": {
            "200": {"description": "OK", "content": {media: answers for media in gives}},
            **{
                code: {"description": words, "content": {"application/json": {"schema": ERROR}}}
                for code, words in errors.items()
            },
        },
    }
