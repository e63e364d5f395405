"""Values drawn from the OpenAPI document's own request schemas, for the test that the
server takes every request its schema allows (tests/api/test_openapi.py).

`values(doc, schema)` is a hypothesis strategy over the JSON Schema keywords this API's
request models use (types, bounds, lengths, patterns, enum/const, anyOf, objects with
required and optional properties); whatever it draws is then kept only if it validates
against the whole schema (jsonschema, draft 2020-12, as OpenAPI 3.1 uses), so keywords it
does not draw from (if/then/else, say) still hold.
"""

from __future__ import annotations

from typing import Any

import jsonschema
from hypothesis import strategies as st

# JSON text cannot carry lone surrogates; every other code point is fair.
CHARACTERS = st.characters(exclude_categories=("Cs",))


def resolve(doc: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        node: Any = doc
        for part in schema["$ref"].removeprefix("#/").split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        schema = {**node, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def validator(doc: dict[str, Any], schema: dict[str, Any]) -> jsonschema.Draft202012Validator:
    """A validator of `schema` whose references resolve in the OpenAPI document."""
    return jsonschema.Draft202012Validator({**schema, "components": doc.get("components", {})})


def values(doc: dict[str, Any], schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    check = validator(doc, schema)
    return _draw(doc, schema).filter(check.is_valid)


def _draw(doc: dict[str, Any], schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    schema = resolve(doc, schema)
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            rest = {k: v for k, v in schema.items() if k != key}
            return st.one_of([_draw(doc, {**rest, **branch}) for branch in schema[key]])
    kind = schema.get("type")
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind == "integer":
        ints = st.integers(_bound(schema, "minimum", 1), _bound(schema, "maximum", -1))
        return ints | ints.map(float)  # JSON Schema's integer: 3.0 is one too
    if kind == "number":
        return st.floats(schema.get("minimum"), schema.get("maximum"), allow_nan=False,
                         allow_infinity=False)
    if kind == "string":
        low, high = schema.get("minLength", 0), schema.get("maxLength")
        if "pattern" in schema:
            return st.from_regex(schema["pattern"], alphabet=CHARACTERS).filter(
                lambda s: low <= len(s) and (high is None or len(s) <= high))
        return st.text(CHARACTERS, min_size=low, max_size=high)
    if kind == "array":
        return st.lists(_draw(doc, schema.get("items", {})),
                        min_size=schema.get("minItems", 0), max_size=schema.get("maxItems", 4))
    if kind == "object" or "properties" in schema:
        properties = schema.get("properties", {})
        required = set(schema.get("required", ()))
        return st.fixed_dictionaries(
            {k: _draw(doc, v) for k, v in properties.items() if k in required},
            optional={k: _draw(doc, v) for k, v in properties.items() if k not in required})
    if not schema or kind is None:  # any JSON value
        return (st.none() | st.booleans() | st.integers() | st.text(CHARACTERS)
                | st.fixed_dictionaries({}))
    raise ValueError(f"no values drawn for {schema}")


def _bound(schema: dict[str, Any], key: str, step: int) -> int | None:
    exclusive = "exclusiveM" + key[1:]
    if exclusive in schema:
        return int(schema[exclusive]) + step
    return None if key not in schema else int(schema[key])
