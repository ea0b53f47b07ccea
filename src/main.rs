fn main() {
    std::process::exit(promote::cli::main());
}
