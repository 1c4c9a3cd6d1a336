MESSAGES: dict[str, dict[str, str]] = {}
