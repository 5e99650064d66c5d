//! A small command-line argument reader shared by every subcommand.
//!
//! Options are `--name value` or `--flag`; everything else is positional. Errors are values
//! with a message fit to show the user.

use std::fmt;

/// A command-line mistake, shown to the user as `error: ...`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgError(pub String);

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ArgError {}

/// Parsed arguments of one subcommand.
#[derive(Debug, Default)]
pub struct Args {
    positional: Vec<String>,
    options: Vec<(String, Option<String>)>,
    used: Vec<bool>,
}

impl Args {
    /// Splits `raw` into options and positionals. `flags` names the options that take no value;
    /// every other `--name` consumes the next argument as its value.
    pub fn parse(raw: &[String], flags: &[&str]) -> Result<Args, ArgError> {
        let mut args = Args::default();
        let mut i = 0;
        while i < raw.len() {
            let a = &raw[i];
            if let Some(name) = a.strip_prefix("--") {
                if let Some((n, v)) = name.split_once('=') {
                    args.options.push((n.to_string(), Some(v.to_string())));
                } else if flags.contains(&name) {
                    args.options.push((name.to_string(), None));
                } else {
                    let v = raw
                        .get(i + 1)
                        .ok_or_else(|| ArgError(format!("option --{name} needs a value")))?;
                    args.options.push((name.to_string(), Some(v.clone())));
                    i += 1;
                }
            } else {
                args.positional.push(a.clone());
            }
            i += 1;
        }
        args.used = vec![false; args.options.len()];
        Ok(args)
    }

    /// Positional arguments in order.
    pub fn positional(&self) -> &[String] {
        &self.positional
    }

    /// True when `--name` was given (as a flag or with a value).
    pub fn flag(&mut self, name: &str) -> bool {
        let mut found = false;
        for (i, (n, _)) in self.options.iter().enumerate() {
            if n == name {
                self.used[i] = true;
                found = true;
            }
        }
        found
    }

    /// The value of `--name`, if given (the last one wins).
    pub fn value(&mut self, name: &str) -> Option<String> {
        let mut out = None;
        for (i, (n, v)) in self.options.iter().enumerate() {
            if n == name {
                self.used[i] = true;
                out = v.clone();
            }
        }
        out
    }

    /// The value of `--name` parsed as `T`, with a clear error when it does not parse.
    pub fn parsed<T: std::str::FromStr>(&mut self, name: &str) -> Result<Option<T>, ArgError> {
        match self.value(name) {
            None => Ok(None),
            Some(v) => v
                .parse()
                .map(Some)
                .map_err(|_| ArgError(format!("option --{name}: cannot read '{v}'"))),
        }
    }

    /// `--threads T` (1 to 256, default 1) and `--hash MB` (1 to 65536, default `hash_mb`): the
    /// search options the analysing commands share.
    pub fn threads_and_hash(&mut self, hash_mb: usize) -> Result<(usize, usize), ArgError> {
        let threads: usize = self.parsed("threads")?.unwrap_or(1);
        let hash: usize = self.parsed("hash")?.unwrap_or(hash_mb);
        if !(1..=256).contains(&threads) {
            return Err(ArgError(format!(
                "option --threads: give 1 to 256, not {threads}"
            )));
        }
        if !(1..=65536).contains(&hash) {
            return Err(ArgError(format!(
                "option --hash: give 1 to 65536 MB, not {hash}"
            )));
        }
        Ok((threads, hash))
    }

    /// Fails on any option that no accessor asked for, so typos are reported, not ignored.
    pub fn finish(&self) -> Result<(), ArgError> {
        for (i, (n, _)) in self.options.iter().enumerate() {
            if !self.used[i] {
                return Err(ArgError(format!("unknown option --{n}")));
            }
        }
        Ok(())
    }
}

/// Prints one line to stdout. When the reader has gone away (`estuary perft 6 | head -1`) the
/// program ends quietly instead of panicking.
pub fn emit(line: std::fmt::Arguments) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if out
        .write_fmt(line)
        .and_then(|_| out.write_all(b"\n"))
        .and_then(|_| out.flush())
        .is_err()
    {
        std::process::exit(0);
    }
}

/// `println!` that ends the program quietly on a closed pipe (see [`emit`]).
#[macro_export]
macro_rules! outln {
    ($($t:tt)*) => { $crate::args::emit(format_args!($($t)*)) };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn options_and_positionals() {
        let mut a = Args::parse(&s(&["5", "--fen", "x y", "--divide"]), &["divide"]).unwrap();
        assert_eq!(a.positional(), &["5".to_string()]);
        assert_eq!(a.value("fen").as_deref(), Some("x y"));
        assert!(a.flag("divide"));
        assert!(a.finish().is_ok());
    }

    #[test]
    fn unknown_option_and_missing_value() {
        let a = Args::parse(&s(&["--bogus", "1"]), &[]).unwrap();
        assert!(a.finish().is_err());
        assert!(Args::parse(&s(&["--fen"]), &[]).is_err());
        let mut b = Args::parse(&s(&["--threads", "x"]), &[]).unwrap();
        assert!(b.parsed::<usize>("threads").is_err());
        let mut c = Args::parse(&s(&["--threads", "0"]), &[]).unwrap();
        assert!(c.threads_and_hash(16).is_err());
        let mut d = Args::parse(&s(&["--hash", "99999999"]), &[]).unwrap();
        assert!(d.threads_and_hash(16).is_err());
        let mut e = Args::parse(&s(&["--threads", "3"]), &[]).unwrap();
        assert_eq!(e.threads_and_hash(16), Ok((3, 16)));
    }
}
