"""The page's scripts and templates show who owns them.

- Each folder under templates/ is named after the app that renders it (Django's own ``registration``
  for the login page).
- The page's JavaScript is ES modules: templates load the entry (static/js/main.js) with
  ``<script type="module">`` and vendored libraries as classic scripts; no other script tag, and no
  inline script (a Content-Security-Policy without 'unsafe-inline' stays possible). JSON data islands
  (``json_script``) are data, not scripts.
- The modules talk through imports: no ``window.pm*`` global, no new ``window.<name> =`` at all; every
  module under static/js/ is reached from the entry, and every import names a file that exists.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from django.apps import apps

from .conftest import REPOSITORY

ENTRY = "main.js"
# Django's auth views look for their templates under registration/, whatever the app.
DJANGO_TEMPLATE_FOLDERS = frozenset({"registration"})

_SCRIPT_TAG = re.compile(r"<script\b([^>]*)>", re.IGNORECASE)
_ATTR = re.compile(r"""([\w-]+)\s*=\s*("[^"]*"|'[^']*')""")
_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^'";]*?["'](\.{1,2}/[^"']+)["']""", re.MULTILINE)
_GLOBAL = re.compile(r"\bwindow\.pm\w*|\bwindow\.[A-Za-z_$][\w$]*\s*=(?!=)")


def template_folder_problems(root: Path) -> list[str]:
    """Folders under templates/ not named after an installed app."""
    owners = {config.label for config in apps.get_app_configs()} | DJANGO_TEMPLATE_FOLDERS
    ours = sorted(config.label for config in apps.get_app_configs()
                  if Path(config.path).parent == REPOSITORY and config.label != "pm_assistant")
    return [f"templates/{folder.name}/: no app is called {folder.name!r}; put the templates in the folder "
            f"of the app that renders them ({', '.join(ours)}; or an app it overrides, such as admin)"
            for folder in sorted((root / "templates").iterdir()) if folder.is_dir() and folder.name not in owners]


def script_tag_problems(root: Path) -> list[str]:
    """Script tags in templates other than the module entry, a vendored classic script or a JSON island."""
    problems = []
    for path in sorted((root / "templates").rglob("*.html")):
        for match in _SCRIPT_TAG.finditer(path.read_text()):
            attrs = {name.lower(): value[1:-1] for name, value in _ATTR.findall(match.group(1))}
            kind, src = attrs.get("type", ""), attrs.get("src", "")
            where = f"{path.relative_to(root)}: <script{match.group(1)}>"
            if kind == "application/json":
                continue
            if not src:
                problems.append(f"{where}: an inline script; move it into a module under static/js/ and import it "
                                f"from {ENTRY}")
            elif kind == "module":
                if not src.rstrip("'\" %}").endswith(f"js/{ENTRY}"):
                    problems.append(f"{where}: a second module entry; import it from static/js/{ENTRY}")
            elif "vendor/" not in src:
                problems.append(f"{where}: a classic script; make it an ES module imported from static/js/{ENTRY} "
                                "(only vendored libraries stay classic scripts)")
    return problems


def module_problems(root: Path) -> list[str]:
    """Globals between modules, imports of missing files and modules the entry never reaches."""
    folder = root / "static" / "js"
    problems, reached, todo = [], set(), [folder / ENTRY]
    if not (folder / ENTRY).is_file():
        problems, todo = [f"static/js/{ENTRY}: missing; it is the one module the pages load"], []
    for path in sorted(folder.glob("*.js")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if _GLOBAL.search(line.split("//")[0]):
                problems.append(f"static/js/{path.name}:{number}: a window global ({line.strip()}); export it "
                                "and import it where it is used")
    while todo:
        path = todo.pop()
        if path in reached:
            continue
        reached.add(path)
        for target in _IMPORT.findall(path.read_text()):
            imported = (path.parent / target).resolve()
            if not imported.is_file():
                problems.append(f"static/js/{path.name}: imports {target}, which does not exist")
            else:
                todo.append(imported)
    problems += [f"static/js/{path.name}: not imported by static/js/{ENTRY} (directly or through another module), "
                 "so no page runs it" for path in sorted(folder.glob("*.js")) if path.resolve() not in reached]
    return problems


def test_templates_and_scripts_follow_the_rules() -> None:
    assert template_folder_problems(REPOSITORY) == []
    assert script_tag_problems(REPOSITORY) == []
    assert module_problems(REPOSITORY) == []


def _copy(tmp_path: Path) -> Path:
    for part in ("templates", "static/js"):
        shutil.copytree(REPOSITORY / part, tmp_path / part)
    return tmp_path


def test_a_template_folder_named_after_no_app_is_reported(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "templates" / "agent").rename(root / "templates" / "assistant")
    assert [p.split(":")[0] for p in template_folder_problems(root)] == ["templates/assistant/"]


def test_a_classic_or_inline_script_is_reported(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    base = root / "templates" / "base.html"
    text = base.read_text()
    base.write_text(text.replace("</head>", "<script defer src=\"{% static 'js/app.js' %}\"></script>\n"
                                            "<script>document.title = 'x';</script>\n"
                                            "<script type=\"module\" src=\"{% static 'js/app.js' %}\"></script>\n"
                                            "</head>"))
    assert len(script_tag_problems(root)) == 3
    assert any("a classic script" in p for p in script_tag_problems(root))
    assert any("an inline script" in p for p in script_tag_problems(root))
    assert any("a second module entry" in p for p in script_tag_problems(root))


def test_a_window_global_an_orphan_module_and_a_missing_import_are_reported(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    js = root / "static" / "js"
    (js / "app.js").write_text((js / "app.js").read_text() + "window.pmShowToast = showToast;\n")
    (js / "orphan.js").write_text("export const nothing = 0;\n")
    (js / "page_context.js").write_text('import { gone } from "./gone.js";\n' + (js / "page_context.js").read_text())
    problems = module_problems(root)
    assert any(p.startswith("static/js/app.js:") and "window global" in p for p in problems)
    assert any("orphan.js: not imported" in p for p in problems)
    assert any("imports ./gone.js, which does not exist" in p for p in problems)
    assert len(problems) == 3
