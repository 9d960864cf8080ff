//! Runs one of the tests' Python scripts (a python-chess client, the selenium browser driver)
//! as a child with a deadline. The script's output goes to files, not pipes, so nothing it
//! prints can block it; past the deadline its whole process group (python, and the ply
//! engines or browser it started) is killed and the test fails with what it printed so far,
//! instead of hanging the test run. Exit status 77 means a dependency is missing: the test
//! says it is skipped.

use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub fn run_python_check(test: &str, script: &str, args: &[&str], limit: Duration) {
    let dir = std::env::temp_dir().join(format!("ply-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let out_path = dir.join("output.txt");
    let out_file = std::fs::File::create(&out_path).expect("an output file");
    let err_file = out_file.try_clone().expect("the output file twice");
    let spawned = Command::new("python3")
        .arg(script)
        .args(args)
        .stdin(Stdio::null())
        .stdout(out_file)
        .stderr(err_file)
        .process_group(0)
        .spawn();
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => {
            println!("SKIPPED {test}: cannot run python3 ({e})");
            return;
        }
    };
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the script's status") {
            break Some(status);
        }
        if started.elapsed() > limit {
            // SAFETY: kill(2) on the script's own process group (its pid, see
            // `process_group(0)`); no memory is involved.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let text = std::fs::read_to_string(&out_path).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    let Some(status) = status else {
        panic!(
            "{test}: the script did not end within {limit:?} and was killed; it printed:\n{text}"
        );
    };
    if status.code() == Some(77) {
        println!("SKIPPED {test}: {}", text.trim());
        eprintln!("SKIPPED {test}: {}", text.trim());
        return;
    }
    println!("{text}");
    assert!(status.success(), "{test} failed ({status}):\n{text}");
}
