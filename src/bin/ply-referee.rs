//! ply-referee: plays engines against each other (placeholder until the referee lands).

fn main() {
    eprintln!("ply-referee is not built yet");
    std::process::exit(2);
}
