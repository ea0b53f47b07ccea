fn main() {
    std::process::exit(promote::cli::run(std::env::args_os()));
}
