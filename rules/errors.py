"""The one error an engine may raise on purpose: the input is invalid.

Everything the contract calls invalid input (a missing field, a wrong type, a
value out of range, an unknown enum value, a die the die cannot show, an action
the rules forbid) ends as an :class:`InvalidInput`.  The CLI turns it into exit
code 2 and the web bridge into HTTP 400, both with :meth:`InvalidInput.as_dict`.
Any other exception is a bug.
"""


class InvalidInput(Exception):
    """Input the rules refuse, with one message per JSON path.

    >>> err = InvalidInput("The unit is invalid.", {"units[1].rate": "must be at least 0"})
    >>> err.as_dict()["fields"]
    {'units[1].rate': 'must be at least 0'}
    """

    def __init__(self, error: str, fields: dict[str, str] | None = None,
                 messages: dict[str, dict] | None = None):
        super().__init__(error)
        self.error = error
        self.fields = dict(fields or {})
        # The fields' sentences as message keys (``{path: {"key", "params"}}``), where the engine says
        # them so: ``check-declaration`` hands them on, and people read them in their language.
        self.messages = dict(messages or {})

    @classmethod
    def field(cls, path: str, problem: str, error: str | None = None) -> "InvalidInput":
        """A single bad field; the sentence defaults to naming the field."""
        return cls(error or f"Invalid value for {path}: {problem}.", {path: problem})

    @classmethod
    def keyed(cls, path: str, key: str, template: str, **params) -> "InvalidInput":
        """A single bad field said by the message ``key``, whose English ``template`` the sentence fills.

        >>> err = InvalidInput.keyed("armies.a.ruthless", "refusal.talent", "needs the army talent {talent}",
        ...                          talent="ruthless")
        >>> err.fields["armies.a.ruthless"], err.messages["armies.a.ruthless"]["key"]
        ('needs the army talent ruthless', 'refusal.talent')
        """
        refusal = cls.field(path, template.format(**params))
        refusal.messages[path] = {"key": key, "params": params}
        return refusal

    def as_dict(self) -> dict:
        return {"error": self.error, "fields": self.fields}


class UnknownOperation(LookupError):
    """A slug or an operation name that no registered ruleset has."""
