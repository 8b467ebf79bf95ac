"""The package boundaries of STYLE.md, checked on the source: scorer is standard library only, vision never imports
scorer or api, neither imports the training wing; the project's imports make no circle and follow the flow photo ->
detections -> layout -> hand -> scorer -> result, no module importing back up it; and each package's ``__all__`` is
sorted and complete."""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _imports(package: str) -> set[tuple[str, str]]:
    found = set()
    for path in (ROOT / package).rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.update((str(path.relative_to(ROOT)), alias.name.split(".")[0]) for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add((str(path.relative_to(ROOT)), node.module.split(".")[0]))
    return found


def test_scorer_imports_only_the_standard_library() -> None:
    outside = {(f, m) for f, m in _imports("scorer") if m != "scorer" and m not in sys.stdlib_module_names}
    assert outside == set()


def test_vision_never_imports_scorer_or_api() -> None:
    assert {(f, m) for f, m in _imports("vision") if m in ("scorer", "api")} == set()


def test_the_runtime_never_imports_the_training_wing() -> None:
    """vision and api run on ONNX Runtime: PyTorch, ultralytics and ``training`` (the ``train`` extra) stay out."""
    training_only = {"torch", "torchvision", "ultralytics", "training"}
    assert {(f, m) for package in ("vision", "api") for f, m in _imports(package) if m in training_only} == set()


@pytest.mark.parametrize("name", ["scorer", "scorer.mcr", "vision", "vision.layout"])
def test_all_is_sorted_and_importable(name: str) -> None:
    module = importlib.import_module(name)
    exported = module.__all__
    assert list(exported) == sorted(exported)
    for item in exported:
        assert hasattr(module, item), item


# --- the import graph: photo -> detections -> layout -> hand -> scorer -> result, and nothing back up -------------
PROJECT = tuple(p for p in ("scorer", "vision", "api", "training", "bench") if (ROOT / p).is_dir())
# each module's place in the flow (the longest matching prefix): a module imports only from its own place or below
PLACES = {
    "scorer": 0, "vision": 0,  # the rules and the photo reader know nothing of each other
    "api": 1, "api.config": 1, "api.schemas": 1, "api.pipeline": 1, "api.render": 1,  # joins them
    "api.deps": 2, "api.errors": 2, "api.middleware": 2, "api.scoring": 2,  # the service's parts
    "api.routes": 3, "api.main": 4, "api.cli": 5,  # the service and the command
    "training": 6, "bench": 7,  # beside the run time: they may import it, it never imports them
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _graph() -> dict[str, set[str]]:
    """Every project module and the project modules it imports (at the top, in functions, or for type checking)."""
    files = {_module_name(p): p for package in PROJECT for p in (ROOT / package).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base for alias in node.names]
            else:
                continue
            for target in targets:
                while target and target not in files:  # ``import a.b.c`` names a.b.c, or a package above it
                    target = target.rpartition(".")[0]
                if target and target != name:
                    found.add(target)
        graph[name] = found
    return graph


def _place(module: str) -> int:
    prefix = max((p for p in PLACES if module == p or module.startswith(p + ".")), key=len)
    return PLACES[prefix]


def test_the_project_modules_import_no_circle() -> None:
    graph = _graph()
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> None:
        if module in path:
            raise AssertionError("an import circle: " + " -> ".join([*path[path.index(module):], module]))
        if module in done:
            return
        path.append(module)
        for target in sorted(graph[module]):
            visit(target)
        path.pop()
        done.add(module)

    for module in sorted(graph):
        visit(module)
    assert {"api.pipeline", "api.render", "vision.layout.search", "scorer.complete"} <= done


def test_no_module_imports_back_up_the_flow() -> None:
    back = sorted((a, b) for a, targets in _graph().items() for b in targets if _place(b) > _place(a))
    assert back == []


def test_the_rules_and_the_photo_reader_know_nothing_of_each_other() -> None:
    graph = _graph()
    crossing = sorted((a, b) for a, targets in graph.items() for b in targets
                      if {a.split(".")[0], b.split(".")[0]} == {"scorer", "vision"})
    assert crossing == []
    assert {"scorer", "vision.relabel"} <= graph["api.pipeline"]  # api hands the layout the scorer's check


def test_nothing_imports_the_command_or_the_service() -> None:
    """Only the benchmarks may: they time ``mjscore batch`` (``api.cli.run_batch``) as its users run it."""
    graph = _graph()
    users = sorted((a, b) for a, targets in graph.items() for b in targets if not a.startswith("bench.")
                   and (b in ("api.cli", "api.main") or b.startswith("api.routes") and not a.startswith("api.")))
    assert users == []

