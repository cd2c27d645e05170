"""Discord's JSON error answers, raised by handlers and turned into HTTP responses."""

from typing import Any

from fakediscord.ratelimit import refusal_headers


class APIError(Exception):
    """An error answer: HTTP status, Discord's JSON error code, message and field errors.

    `extra` adds fields to the body and `headers` to the answer, for errors that are also
    rate limits (a 429 carries `retry_after` and its rate-limit headers).
    """

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict[str, Any] | None = None,
        *,
        extra: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.extra = extra or {}
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body | self.extra


def unauthorized() -> APIError:
    return APIError(401, 0, "401: Unauthorized")


def not_found() -> APIError:
    return APIError(404, 0, "404: Not Found")


def unknown_channel() -> APIError:
    return APIError(404, 10003, "Unknown Channel")


def unknown_guild() -> APIError:
    return APIError(404, 10004, "Unknown Guild")


def unknown_member() -> APIError:
    return APIError(404, 10007, "Unknown Member")


def unknown_message() -> APIError:
    return APIError(404, 10008, "Unknown Message")


def unknown_user() -> APIError:
    return APIError(404, 10013, "Unknown User")


def unknown_emoji() -> APIError:
    return APIError(400, 10014, "Unknown Emoji")


def unknown_webhook() -> APIError:
    return APIError(404, 10015, "Unknown Webhook")


def unknown_interaction() -> APIError:
    return APIError(404, 10062, "Unknown interaction")


def invalid_webhook_token() -> APIError:
    return APIError(401, 50027, "Invalid Webhook Token")


def already_acknowledged() -> APIError:
    return APIError(400, 40060, "Interaction has already been acknowledged.")


def cannot_message_user() -> APIError:
    return APIError(403, 50007, "Cannot send messages to this user")


def missing_permissions() -> APIError:
    return APIError(403, 50013, "Missing Permissions")


def missing_access() -> APIError:
    return APIError(403, 50001, "Missing Access")


def empty_message() -> APIError:
    return APIError(400, 50006, "Cannot send an empty message")


def thread_archived() -> APIError:
    return APIError(400, 50083, "Thread is archived")


def slowmode(retry_after: float) -> APIError:
    """Sending faster than the channel's slowmode: a rate limit with its own error code."""
    return APIError(
        429,
        20016,
        "This action cannot be performed due to slowmode rate limit.",
        extra={"retry_after": round(retry_after, 3), "global": False},
        headers=refusal_headers(retry_after, scope="user"),
    )


def too_many_channels(limit: int) -> APIError:
    return APIError(400, 30013, f"Maximum number of guild channels reached ({limit})")


def entity_too_large() -> APIError:
    return APIError(413, 40005, "Request entity too large")


class FormErrors:
    """Collects field errors at dotted paths and builds Discord's nested errors object."""

    def __init__(self) -> None:
        self._tree: dict[str, Any] = {}

    def add(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        node = self._tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def raise_if_any(self) -> None:
        if self._tree:
            raise APIError(400, 50035, "Invalid Form Body", self._tree)
