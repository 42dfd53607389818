"""Safe YAML with bounds: a YAML bomb is an error, never a hang.

PyYAML's safe loader builds aliases as shared references, so a "billion laughs"
document loads cheaply and explodes later in whoever walks it. We compose the
node graph, walk it with a budget (an alias is walked again each time it is
used), and only then construct Python objects.
"""
from __future__ import annotations

from typing import Any


class YamlError(Exception):
    def __init__(self, message: str, line: int = 1) -> None:
        super().__init__(message)
        self.line = line


def load(text: str, *, max_bytes: int = 65536, max_nodes: int = 2000) -> Any:
    import yaml

    if len(text) > max_bytes:
        raise YamlError(f"YAML is larger than {max_bytes} characters")
    loader_cls = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    loader = loader_cls(text)
    try:
        try:
            node = loader.get_single_node()
        except yaml.MarkedYAMLError as e:
            mark = e.problem_mark or e.context_mark
            line = mark.line + 1 if mark is not None else 1
            raise YamlError(f"YAML syntax: {e.problem or e.context}", line) from None
        except yaml.YAMLError as e:
            raise YamlError(f"YAML: {str(e).splitlines()[0]}") from None
        if node is None:
            return None
        _walk(node, max_nodes)
        try:
            return loader.construct_document(node)
        except yaml.YAMLError as e:
            line = getattr(getattr(e, "problem_mark", None), "line", 0) + 1
            raise YamlError(f"YAML value: {getattr(e, 'problem', None) or e}", line) from None
    finally:
        loader.dispose()


def _walk(root: Any, max_nodes: int) -> None:
    import yaml

    seen = 0
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        seen += 1
        if seen > max_nodes or depth > 50:
            raise YamlError(
                f"YAML expands to more than {max_nodes} nodes or 50 levels (aliases used as a bomb?)",
                node.start_mark.line + 1,
            )
        if isinstance(node, yaml.SequenceNode):
            stack.extend((child, depth + 1) for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            keys: set[str] = set()
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode):
                    if key.value in keys:  # PyYAML keeps the last silently; a reader sees the first
                        raise YamlError(f"duplicate key {key.value[:40]!r}", key.start_mark.line + 1)
                    keys.add(key.value)
                stack.append((key, depth + 1))
                stack.append((value, depth + 1))
