"""The API's JSON parser: DRF's, decoding with the web app's one safe decoder.

DRF's own parser hands the body to Python's recursive decoder, so a document
nested a few thousand levels deep ended in a ``RecursionError`` (500).  This
one refuses it as malformed JSON: 400 with a message.
"""

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from masscombat.core import jsonsafe


class SafeJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return jsonsafe.loads(stream.read())
        except (ValueError, UnicodeDecodeError) as exc:  # TooDeep is a ValueError
            raise ParseError(f"JSON parse error - {exc}") from None
