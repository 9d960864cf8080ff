"""Builds the Python package (python/, with maturin) into a virtual environment under
target/ and runs its tests (python/tests) with pytest. Run by tests/python_package.rs under
a deadline; exit status 77 says a tool is missing (the test is then skipped)."""

import os
import shutil
import subprocess
import sys
import venv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, "target", "python-venv")


def missing(what):
    print(f"{what} is not installed (.ci/run installs it)")
    sys.exit(77)


def main():
    for module in ["pytest", "numpy", "maturin"]:
        try:
            __import__(module)
        except ImportError:
            missing(module)
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        # The system's site-packages (numpy, pytest, pettingzoo, gymnasium) are reused.
        venv.EnvBuilder(system_site_packages=True, with_pip=True).create(VENV)
    env = dict(os.environ, VIRTUAL_ENV=VENV, PATH=os.path.join(VENV, "bin") + os.pathsep + os.environ["PATH"])
    maturin = shutil.which("maturin") or missing("maturin")
    subprocess.run(
        [maturin, "develop", "--quiet"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    tests = os.path.join(ROOT, "python", "tests")
    result = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", tests], cwd=ROOT, env=env)
    sys.exit(result.returncode)


if __name__ == "__main__":
    main()
