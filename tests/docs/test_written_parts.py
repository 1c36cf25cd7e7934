"""The reference's generated parts are written out in the repository too (docs/_generate.py), so a
page read there is whole; this keeps what is written in step with the parsers and models."""

from __future__ import annotations

import importlib.util

from tests.docs.snippets import ROOT


def _generator():
    spec = importlib.util.spec_from_file_location("docs_generate", ROOT / "docs" / "_generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_written_part_is_what_the_code_makes_now():
    generator = _generator()
    assert generator.pages(), "no page asks for a generated part"
    stale = generator.stale()
    assert not stale, (f"{', '.join(str(p.relative_to(ROOT)) for p in stale)}: the written parts are out of step "
                       f"with the code; run `python docs/_generate.py --write` and commit the pages")


def test_a_written_part_is_replaced_whole_and_the_site_sees_it_once(tmp_path):
    generator = _generator()
    page = "intro\n\n<!-- generated: constants bus.log MAGIC -->\nold text\nmore old text\n<!-- end generated -->\n\nafter\n"
    fresh = generator.written(page)
    assert "old text" not in fresh and fresh.count("<!-- end generated -->") == 1
    assert "`bus.log.MAGIC`" in fresh and fresh.endswith("<!-- end generated -->\n\nafter\n")
    assert generator.written(fresh) == fresh  # writing again changes nothing
    site = generator.on_page_markdown(fresh, None, None, None)
    assert site.count("`bus.log.MAGIC`") == 1 and "generated" not in site
    bare = generator.on_page_markdown("<!-- generated: constants bus.log MAGIC -->\nafter\n", None, None, None)
    assert bare.count("`bus.log.MAGIC`") == 1 and bare.endswith("after\n")
