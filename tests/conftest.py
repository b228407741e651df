"""Shared test fixtures.

Builds that many tests read are made once: the demo dataset once per session (by one
pytest-xdist worker, read by all: ``make test`` runs ``-n auto --dist loadgroup``), a local Ray
once for the tests that need it, which run one after another on one worker.
"""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
# Ray starts its workers at niceness 15 (raylet's worker_niceness). Beside the other xdist
# workers, which keep both CPUs busy at niceness 0, they got almost no CPU: the Ray Data LLM
# round trip took 112-186 s instead of 10 (its telemetry actor and request workers waiting for
# a slice), hit pytest-timeout's 300 s on a loaded machine, and Ray's own processes (raylet,
# GCS, agents) polled all that while. At niceness 0 the Ray tests compete as equals.
os.environ.setdefault("RAY_worker_niceness", "0")
# Ray 2.60 token authentication for the one local Ray (``local_ray``): Ray reads it on import.
os.environ.setdefault("RAY_AUTH_MODE", "token")


import sys as _sys
from collections.abc import Callable as _Callable
from collections.abc import Iterator as _Iterator
from pathlib import Path as _Path
from typing import Any as _Any

import pytest


def _native_threads_per_worker() -> None:
    """Under pytest-xdist each worker's native libraries (OpenMP in torch, OpenBLAS, OpenCV,
    numexpr) get the worker's share of the CPUs, and so do the processes its tests start. Left
    alone each starts a thread per CPU, and threads spinning while they wait for work take the
    CPU that the other workers need: the suite's heavy tests took about a quarter more CPU time.
    Set here, before any of them is imported; a value the caller set is kept."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    if workers < 2:
        return
    share = str(max(1, len(os.sched_getaffinity(0)) // workers))
    for var in (
        "OMP_NUM_THREADS",
        "OPENBLAS_NUM_THREADS",
        "MKL_NUM_THREADS",
        "NUMEXPR_NUM_THREADS",
        "OPENCV_FOR_THREADS_NUM",
    ):
        os.environ.setdefault(var, share)


_native_threads_per_worker()


def _bytecode_cache() -> None:
    """Where byte code is not written (``PYTHONDONTWRITEBYTECODE``, as in many shells), every
    pytest-xdist worker and every process the tests start (``forgebench`` commands, Ray's
    workers, the demo's build) compiled each module it imported from source again: about 0.6
    CPU-s for the CLI and Ray alone, a tenth of the suite's CPU in all. Then the test session
    and the processes it starts (they inherit the environment) write and read byte code in a
    folder of their own (``PYTHONPYCACHEPREFIX``), outside the source tree as that setting
    wants: ``$TMPDIR/forgebench-test-pycache-<uid>``, made private to this user and used only
    when it is (another user's byte code there could run as this one's). Kept from one session
    to the next; a changed source file is compiled again, as in ``__pycache__``. Where byte code
    is written already, or a prefix is set, nothing changes (CI writes it: ``.ci/run``)."""
    import stat
    import tempfile

    if not _sys.dont_write_bytecode or _sys.pycache_prefix is not None:
        return
    folder = _Path(tempfile.gettempdir()) / f"forgebench-test-pycache-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        st = folder.lstat()
    except OSError:
        return
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        return
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(folder)
    _sys.pycache_prefix = str(folder)
    _sys.dont_write_bytecode = False


_bytecode_cache()


def _freeze_after_full_collections() -> None:
    """After each full (generation 2) garbage collection the objects left are moved out of the
    collector's reach (``gc.freeze``): a worker accumulates modules (torch, pandas, Ray, ...)
    and fixtures worth about a million objects, and every full collection walked them all again
    (12-15 of them per worker, 0.45 CPU-s each: 16-17 CPU-s of the suite's CPU; 3.6 with this).
    What was frozen is still freed when its last reference goes; only a reference cycle among
    frozen objects stays in memory until the worker exits (the workers' peaks stayed at 1.3-1.7
    GB, as before)."""
    import gc

    def freeze(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info.get("generation") == 2:
            gc.freeze()

    gc.callbacks.append(freeze)


_freeze_after_full_collections()


# --- fake OpenAI-compatible server (tests/support/fake_openai.py; owner: runner) -----------------

FAKE_OPENAI_SCRIPT = _Path(__file__).parent / "support" / "fake_openai.py"
"""Run it as a process: ``python FAKE_OPENAI_SCRIPT --port 0 ...`` prints the port."""


def _load_fake_openai() -> _Any:
    from support.modules import file_module

    return file_module("forgebench_tests_fake_openai", FAKE_OPENAI_SCRIPT)


@pytest.fixture
def fake_openai() -> _Iterator[_Callable[..., _Any]]:
    """Factory: ``fake_openai(latency_ms=5, fault_rate=0.15, seed=1)`` starts a loopback
    OpenAI-compatible server on a thread and returns it (``.url``, ``.script``, ``.hits``,
    ``.requests``, ...; see tests/support/fake_openai.py). Servers stop at teardown."""
    module = _load_fake_openai()
    servers: list[_Any] = []

    def start(**kwargs: _Any) -> _Any:
        server = module.FakeOpenAI(**kwargs).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


# --- builds shared by many tests (support/shared_builds.py) ---------------------------------------

from support.shared_builds import built_once as _built_once  # noqa: E402
from support.shared_builds import session_root as _session_root  # noqa: E402


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--cpu-profile",
        metavar="DIR",
        default=None,
        help="write each test's and fixture's CPU and wall seconds to DIR/<worker>.json "
        "(support/cpu_profile.py; ranked by benchmarks/test_suite_profile.py)",
    )


def pytest_configure(config: pytest.Config) -> None:
    folder = config.getoption("--cpu-profile")
    if folder:
        from support.cpu_profile import CpuProfile

        config.pluginmanager.register(CpuProfile(_Path(folder).resolve()), "forgebench-cpu-profile")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than the CPUs this process may run on (a container's share,
    not the host's). Many tests wait: on a loopback server's replies, on a ``forgebench``
    process they started, on a signal's effect; with one worker per CPU that CPU idles
    meanwhile (a fifth of the suite's time on two CPUs), with one more the extra worker runs."""
    return len(os.sched_getaffinity(0)) + 1


@pytest.fixture(scope="session", autouse=True)
def _private_variant_cache(tmp_path_factory: pytest.TempPathFactory) -> _Iterator[None]:
    """The default variant cache ($FORGEBENCH_CACHE) is the session's own, never the user's
    ``~/.cache`` nor one that another worker writes at the same time; tests that care about the
    cache still set their own."""
    old = os.environ.get("FORGEBENCH_CACHE")
    os.environ["FORGEBENCH_CACHE"] = str(tmp_path_factory.mktemp("variant-cache"))
    yield
    if old is None:
        os.environ.pop("FORGEBENCH_CACHE", None)
    else:
        os.environ["FORGEBENCH_CACHE"] = old


@pytest.fixture(scope="session")
def demo_dataset(tmp_path_factory: pytest.TempPathFactory) -> _Iterator[_Path]:
    """The offline demo's Mandela dataset (``build_demo``), built once per session (by one xdist
    worker, read by all); read it, or change a copy (``support.shared_builds.copy_of``): at the
    end it must be as built. The suites are loaded first, as the CLI does at start-up: the build
    receives its construction parts from them (``construct.parts.CONSTRUCTIONS``), and a worker
    whose earlier tests loaded none would fail it."""
    from forgebench import suites
    from forgebench.demo.build import build_demo

    suites.load()
    frozen = _built_once(_session_root(tmp_path_factory.getbasetemp()), "shared-demo", build_demo)
    yield frozen.root
    frozen.check()


@pytest.fixture(scope="session")
def demo_forensics(
    demo_dataset: _Path, tmp_path_factory: pytest.TempPathFactory
) -> _Iterator[_Path]:
    """The demo's Forensics set (``build_forensics_demo`` of ``demo_dataset``, as ``forgebench
    demo`` makes ``OUT/forensics``), built once per session like ``demo_dataset``, with the
    record beside it that lets a demo keep it (``support.shared_builds.copy_built``). Read it,
    or change a copy."""
    from forgebench.suites.forensics.demo import build_forensics_demo

    def build(folder: _Path) -> _Path:
        build_forensics_demo(demo_dataset, folder / "forensics")
        return folder / "forensics"

    root = _session_root(tmp_path_factory.getbasetemp())
    frozen = _built_once(root, "shared-demo-forensics", build)
    yield frozen.root
    frozen.check()


def _uses_ray(item: pytest.Item | None) -> bool:
    return item is not None and "local_ray" in getattr(item, "fixturenames", ())


_SETUP_GROUPS = (
    ("suites/mandela/verifier/", "verifier"),  # one Verifier per session: OCR and face models
    ("interop/test_hf_dataset.py", "hf-dataset"),  # its module fixture builds three datasets
    ("hostile/test_fuzz_hf_import.py", "hf-dataset"),  # datasets (2 CPU-s to import) too
    ("docs/test_docs_runnable.py", "docs"),  # its module fixture: the demo's Forensics, PIXAR
    # inspect_ai (4 CPU-s to import): the Inspect log tests beside the Inspect view's browser test
    ("interop/test_inspect_log.py", "browser"),
    ("run/test_epochs.py", "browser"),  # its Inspect log of two epochs
    # torch (3 CPU-s to import; transformers, sentence-transformers and diffusers on top): the
    # tiny LLaVA, the UFD detector, MiniLM sentence embeddings, the tiny diffusers pipeline
    ("models/test_hf_local.py", "torch"),
    ("suites/mandela/construct/test_audit.py", "torch"),
    ("suites/pixar/test_pixar_vlm.py", "torch"),
    ("suites/pixar/test_pixar_css.py", "torch"),
    ("construct/test_edit_backends.py", "torch"),
    # multilingual-e5-small (builtin/embed): the engine and its wordings' vectors, made once
    ("suites/forensics/test_extract_chain.py", "embed"),
    ("suites/forensics/test_embed_extract.py", "embed"),
    # the hosted APIs' SDKs (anthropic 2.9 CPU-s to import, google-genai 1.7)
    ("models/test_anthropic.py", "sdk"),
    ("models/test_google.py", "sdk"),
    ("hostile/test_reply_limit.py", "sdk"),  # both SDKs read under the reply limit
    ("suites/forensics/test_choice.py", "sdk"),  # google-genai's enum form
    # the labelled extraction corpus (7,236 answers): the figures per batch and the chain over the
    # test half read the same answers; on one worker the rules' memo reads each once (about 9
    # CPU-s less than on two workers)
    ("suites/forensics/test_extract_rules.py", "extraction-corpus"),
    ("suites/forensics/test_extraction_halves.py", "extraction-corpus"),
)
"""Test folders and files whose tests share a costly setup or import, kept on one xdist worker so
that it is made once (pytest-xdist runs groups with the most tests first); the browser tests (marked
``browser``) are one more such group: they share one Chromium (support/browser.py)."""


def _setup_group(item: pytest.Item) -> str | None:
    if _uses_chromium(item):
        return "browser"
    path = item.path.as_posix()
    return next((group for part, group in _SETUP_GROUPS if f"/tests/{part}" in path), None)


def _uses_chromium(item: pytest.Item | None) -> bool:
    return item is not None and item.get_closest_marker("browser") is not None


def _together(items: list[pytest.Item], belongs: _Callable[[pytest.Item], bool]) -> None:
    """Move the items that ``belongs`` picks to where the first of them is, in their order."""
    picked = [item for item in items if belongs(item)]
    if picked:
        first = items.index(picked[0])
        others = [item for item in items if not belongs(item)]
        items[:] = others[:first] + picked + others[first:]


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups from the markers
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests of the one local Ray run one after another (moved to where the first of them
    was), on one xdist worker (``--dist loadgroup``), so that Ray starts once; so do the browser
    tests (one Chromium); the tests of each of ``_SETUP_GROUPS`` run on one worker too."""
    for item in items:
        group = "ray" if _uses_ray(item) else _setup_group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
    _together(items, _uses_ray)
    _together(items, lambda item: _uses_chromium(item) and not _uses_ray(item))


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Ray stops after the last test that needs it, and Chromium after the last browser test:
    idle, they would take CPU from every test after them."""
    if _uses_ray(item) and not _uses_ray(nextitem) and "ray" in _sys.modules:
        import ray

        if ray.is_initialized():
            ray.shutdown()
    if _uses_chromium(item) and not _uses_chromium(nextitem):
        from support.browser import close_shared

        close_shared()


def pytest_sessionfinish() -> None:
    if "support.browser" in _sys.modules:
        _sys.modules["support.browser"].close_shared()


@pytest.fixture
def local_ray() -> _Any:
    """One local Ray (2 CPUs) shared by the tests that need it, which run one after another; it
    stops after the last of them (``pytest_runtest_teardown``). It runs in token mode
    (``RAY_AUTH_MODE=token``, set when this file is imported: Ray reads it as it is imported),
    as Ray 2.60 clusters do, so a node joins it only the way docs/how-to/scale-out.md says."""
    ray = pytest.importorskip("ray")
    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    return ray
