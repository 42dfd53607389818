"""Durable text (durable.py): a machine's name is a CM403 warning on any domain, a public
service's name is not (issue 14)."""
from __future__ import annotations

import pytest

from chord_memory import durable

MACHINES = [
    "ci-runner-14.build.example-co.com",  # a host label with digits on a company domain
    "deploy from build7.acme.com",
    "runner.build.example-co.com",  # a deep subdomain chain
    "db-3.app.acme.co.uk",  # behind a second-level country domain
    "https://ci-7.acme.io/job/12",  # in a URL
    "build7.corp",  # an internal suffix, as before
]
NOT_MACHINES = [
    "see docs.python.org", "api.github.com", "raw.githubusercontent.com", "registry.npmjs.org",
    "s3.us-east-1.amazonaws.com", "eu-west-1.console.aws.amazon.com", "https://docs.python.org/3/",
    "www.acme.com", "app.acme.co.uk",  # a service's name, one label before the domain
    "test1.spec.ts", "config.v2.yaml", "index.d.ts", "src/app1.module.py",  # files
    "use foo.bar.baz()", "version 1.2.3",
]


@pytest.mark.parametrize("text", MACHINES)
def test_a_machines_name_is_a_warning(text: str) -> None:
    assert [f.code for f in durable.scan("r.md", text)] == ["CM403"]


@pytest.mark.parametrize("text", NOT_MACHINES)
def test_public_names_and_file_names_are_not(text: str) -> None:
    assert durable.scan("r.md", text) == []
