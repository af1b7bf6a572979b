//! zsh's completion script, mended where clap writes it wrong for ctxlens. The top level
//! takes a transcript (`ctxlens FILE`) or a subcommand (`ctxlens compact …`) as its first
//! word, and clap writes those as two positions: zsh took `compact` in `ctxlens compact
//! --pol<Tab>` for the file, waited for a subcommand in the second word, and completed
//! nothing after any subcommand. Here the first word is one position that offers both,
//! and the subcommand is read from it.

/// The script with its first word offering a subcommand or a file; `script` unchanged
/// when it is not in the shape this mends (a clap that writes it right).
pub fn first_word_is_file_or_command(script: &str) -> String {
    let Some(file_spec) = script.lines().find(|l| l.starts_with("'::file -- ")) else {
        return script.to_owned();
    };
    let mended = script
        .replacen(&format!("{file_spec}\n"), "", 1)
        .replacen("\":: :_ctxlens_commands\" \\", "\":: :_ctxlens_first_word\" \\", 1)
        .replacen(
            "words=($line[2] \"${words[@]}\")",
            "words=($line[1] \"${words[@]}\")",
            1,
        )
        .replacen("ctxlens-command-$line[2]:", "ctxlens-command-$line[1]:", 1)
        .replacen("case $line[2] in", "case $line[1] in", 1);
    // Defined before the script's last lines, which call `_ctxlens` when zsh autoloads
    // the file: a function defined after them would not exist yet.
    let first_word = "(( $+functions[_ctxlens_first_word] )) ||\n_ctxlens_first_word() {\n    _alternative 'commands:command:_ctxlens_commands' 'files:transcript:_files'\n}\n\n";
    match mended.rfind("if [ \"$funcstack[1]\" = \"_ctxlens\" ]") {
        Some(at) => format!("{}{first_word}{}", &mended[..at], &mended[at..]),
        None => format!("{mended}\n{first_word}"),
    }
}
