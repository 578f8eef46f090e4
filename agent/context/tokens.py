"""Count tokens offline with the o200k_base encoding."""
from functools import cache

import bpe_openai


@cache
def _encoding() -> bpe_openai.Encoding:
    return bpe_openai.get_encoding("o200k_base")


def token_count(text: str) -> int:
    """Return the number of o200k_base tokens in text."""
    return len(_encoding().encode(text))


def token_truncate(text: str, limit: int) -> str:
    """Cut text to at most limit tokens, dropping any partial character at the cut."""
    tokens = _encoding().encode(text)
    if len(tokens) <= limit:
        return text
    return _encoding().decode_bytes(tokens[:limit]).decode("utf-8", errors="ignore").rstrip() + "…"
