//! The Python package (python/, docs/python.md): builds it with maturin into a virtual
//! environment under target/ and runs its pytest suite, through the deadline helper the
//! browser test uses. Skipped (exit 77) when maturin, numpy or pytest is missing.

mod python_check;

use std::time::Duration;

#[test]
fn python_package_tests_pass() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python_package.py");
    // Building the extension the first time compiles PyO3 and ply without optimisation of
    // ply itself; later runs rebuild only what changed.
    python_check::run_python_check("python_package", script, &[], Duration::from_secs(1200));
}
