"""Discord's checks on message bodies, answered with 400 / 50035 and a nested errors object."""

from collections.abc import Iterator
from typing import Any

from fakediscord.config import Limits
from fakediscord.emojis import emoji_errors
from fakediscord.errors import FormErrors
from fakediscord.models import ACTION_ROW, BUTTON, COMPONENTS_V2_FLAG, SELECT_TYPES, STRING_SELECT

LINK_STYLE = 5
PREMIUM_STYLE = 6
Path = tuple[str | int, ...]


def max_length(limit: int) -> tuple[str, str]:
    return "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."


def bad_length(low: int, high: int) -> tuple[str, str]:
    return "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length."


def validate_message(
    fields: dict[str, Any],
    attachment_count: int,
    limits: Limits,
    emojis: frozenset[int] | set[int] = frozenset(),
) -> None:
    """Checks the fields of a message as it will be after this request; ``emojis`` are the
    custom emojis its components may show (the application's)."""
    errors = FormErrors()
    content = fields.get("content") or ""
    if len(content) > limits.content_length:
        errors.add(("content",), *max_length(limits.content_length))
    _check_embeds(fields.get("embeds") or [], limits, errors)
    if attachment_count > limits.attachments_per_message:
        errors.add(("attachments",), *max_length(limits.attachments_per_message))
    components = fields.get("components") or []
    if fields.get("flags", 0) & COMPONENTS_V2_FLAG:
        _check_layout(components, limits, errors)
    else:
        _check_rows(components, ("components",), limits, errors)
    _check_emojis(components, set(emojis), errors)
    errors.raise_if_any()


def _with_paths(components: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], Path]]:
    """Every component at any depth, with its path in the request."""
    stack: list[tuple[dict[str, Any], Path]] = [
        (component, ("components", index)) for index, component in enumerate(components)
    ]
    while stack:
        component, path = stack.pop()
        yield component, path
        for index, child in enumerate(component.get("components") or []):
            stack.append((child, (*path, "components", index)))
        accessory = component.get("accessory")
        if accessory is not None:
            stack.append((accessory, (*path, "accessory")))


def _check_emojis(components: list[dict[str, Any]], known: set[int], errors: FormErrors) -> None:
    """Buttons and select options show only emoji Discord knows (fakediscord.emojis)."""
    for component, path in _with_paths(components):
        if component.get("type") == BUTTON and "emoji" in component:
            emoji_errors(component["emoji"], known, errors, path)
        for index, option in enumerate(component.get("options") or []):
            if isinstance(option, dict) and "emoji" in option:
                emoji_errors(option["emoji"], known, errors, (*path, "options", index))


def embed_length(embed: dict[str, Any]) -> int:
    """Characters Discord counts toward the 6,000 per message."""
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for embed_field in embed.get("fields") or []:
        total += len(embed_field.get("name") or "") + len(embed_field.get("value") or "")
    return total


def _check_embeds(embeds: list[dict[str, Any]], limits: Limits, errors: FormErrors) -> None:
    if len(embeds) > limits.embeds_per_message:
        errors.add(("embeds",), *max_length(limits.embeds_per_message))
    total = sum(embed_length(embed) for embed in embeds)
    if total > limits.embed_total_chars:
        errors.add(
            ("embeds",),
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {limits.embed_total_chars}",
        )


def _check_rows(rows: list[dict[str, Any]], path: Path, limits: Limits, errors: FormErrors) -> None:
    if len(rows) > limits.action_rows:
        errors.add(path, *bad_length(0, limits.action_rows))
    custom_ids: set[str] = set()
    for index, row in enumerate(rows):
        _check_row(row, (*path, index), limits, errors, custom_ids)


def _check_row(
    row: dict[str, Any], path: Path, limits: Limits, errors: FormErrors, custom_ids: set[str]
) -> None:
    if row.get("type") != ACTION_ROW:
        errors.add((*path, "type"), "UNION_TYPE_CHOICES", 'Value of field "type" must be 1.')
        return
    children = row.get("components") or []
    selects = [c for c in children if c.get("type") in SELECT_TYPES]
    if not children or len(children) > limits.buttons_per_row:
        errors.add((*path, "components"), *bad_length(1, limits.buttons_per_row))
    elif selects and len(children) > 1:
        errors.add(
            (*path, "components"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    for index, child in enumerate(children):
        child_path = (*path, "components", index)
        if child.get("type") == BUTTON:
            _check_button(child, child_path, limits, errors, custom_ids)
        elif child.get("type") in SELECT_TYPES:
            _check_select(child, child_path, limits, errors, custom_ids)
        else:
            errors.add((*child_path, "type"), "UNION_TYPE_CHOICES", "Invalid component type")


def _check_custom_id(
    component: dict[str, Any], path: Path, limits: Limits, errors: FormErrors, seen: set[str]
) -> None:
    custom_id = component.get("custom_id")
    if not custom_id:
        errors.add((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
        return
    if len(custom_id) > limits.custom_id_length:
        errors.add((*path, "custom_id"), *max_length(limits.custom_id_length))
    if custom_id in seen:
        errors.add(
            (*path, "custom_id"),
            "COMPONENT_CUSTOM_ID_DUPLICATED",
            "Component custom id cannot be duplicated",
        )
    seen.add(custom_id)


def _check_button(
    button: dict[str, Any], path: Path, limits: Limits, errors: FormErrors, seen: set[str]
) -> None:
    style = button.get("style")
    if style == LINK_STYLE:
        if not button.get("url"):
            errors.add((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
    elif style != PREMIUM_STYLE:
        _check_custom_id(button, path, limits, errors, seen)
    label = button.get("label") or ""
    if len(label) > limits.button_label_length:
        errors.add((*path, "label"), *max_length(limits.button_label_length))


def _check_select(
    select: dict[str, Any], path: Path, limits: Limits, errors: FormErrors, seen: set[str]
) -> None:
    _check_custom_id(select, path, limits, errors, seen)
    placeholder = select.get("placeholder") or ""
    if len(placeholder) > limits.select_placeholder_length:
        errors.add((*path, "placeholder"), *max_length(limits.select_placeholder_length))
    top = limits.select_options
    low = select.get("min_values", 1)
    high = select.get("max_values", 1)
    if not 0 <= low <= top:
        errors.add((*path, "min_values"), "NUMBER_TYPE_MAX", f"int value should be <= {top}.")
    if not 1 <= high <= top:
        errors.add((*path, "max_values"), "NUMBER_TYPE_MAX", f"int value should be <= {top}.")
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options") or []
    if not 1 <= len(options) <= top:
        errors.add((*path, "options"), *bad_length(1, top))
    if high > len(options):
        errors.add(
            (*path, "max_values"),
            "SELECT_COMPONENT_MAX_VALUES_EXCEEDED",
            "max_values cannot exceed the number of options",
        )
    text_limit = limits.select_option_text_length
    for index, option in enumerate(options):
        for key in ("label", "value", "description"):
            if len(option.get(key) or "") > text_limit:
                errors.add((*path, "options", index, key), *max_length(text_limit))


def _check_layout(components: list[dict[str, Any]], limits: Limits, errors: FormErrors) -> None:
    """Components v2: any layout, at most 40 components, action rows checked as usual."""
    total = 0
    custom_ids: set[str] = set()
    stack: list[tuple[dict[str, Any], Path]] = [
        (component, ("components", index)) for index, component in enumerate(components)
    ]
    while stack:
        component, path = stack.pop()
        total += 1
        if component.get("type") == ACTION_ROW:
            _check_row(component, path, limits, errors, custom_ids)
            total += len(component.get("components") or [])
            continue
        if component.get("type") == BUTTON:
            _check_button(component, path, limits, errors, custom_ids)
            continue
        for index, child in enumerate(component.get("components") or []):
            stack.append((child, (*path, "components", index)))
        accessory = component.get("accessory")
        if accessory is not None:
            stack.append((accessory, (*path, "accessory")))
    if total > limits.components_v2_total:
        errors.add(("components",), *max_length(limits.components_v2_total))
