"""What the hardening tests look for in a rendered page, read with the standard HTML parser."""

from html.parser import HTMLParser


class PageScan(HTMLParser):
    """Collects what a strict content security policy would block, and the POST forms."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.inline_scripts = 0
        self.inline_styles = 0
        self.handlers: list[str] = []
        self.style_attributes: list[str] = []
        self.post_forms = 0
        self.post_forms_without_token = 0
        self._script_without_src = False
        self._form_depth_token: list[bool] = []
        self.text: list[str] = []
        self.attribute_values: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.attribute_values.extend(value for value in attributes.values() if value)
        self.handlers += [f"<{tag} {name}>" for name in attributes if name.startswith("on")]
        if "style" in attributes:
            self.style_attributes.append(f"<{tag} style={attributes['style']!r}>")
        if tag == "script":
            self._script_without_src = "src" not in attributes and attributes.get("type") != "application/json"
        if tag == "style":
            self.inline_styles += 1
        if tag == "form":
            is_post = (attributes.get("method") or "get").lower() == "post"
            self.post_forms += is_post
            self._form_depth_token.append(not is_post)
        if tag == "input" and attributes.get("name") == "csrfmiddlewaretoken" and self._form_depth_token:
            self._form_depth_token[-1] = True

    def handle_endtag(self, tag):
        if tag == "script":
            self._script_without_src = False
        if tag == "form" and self._form_depth_token:
            self.post_forms_without_token += not self._form_depth_token.pop()

    def handle_data(self, data):
        if self._script_without_src and data.strip():
            self.inline_scripts += 1
        self.text.append(data)


def scan(html: str) -> PageScan:
    parser = PageScan()
    parser.feed(html)
    parser.close()
    return parser


def csp_violations(html: str) -> list[str]:
    """Inline code a strict policy would refuse: what the browser would silently drop."""
    found = scan(html)
    problems = [f"{found.inline_scripts} inline script(s)"] if found.inline_scripts else []
    problems += [f"{found.inline_styles} <style> element(s)"] if found.inline_styles else []
    return problems + found.handlers + found.style_attributes
