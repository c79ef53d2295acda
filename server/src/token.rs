//! The panel token: what every request must present as
//! `Authorization: Bearer <token>`.
//!
//! A token is 32 random bytes written as 64 lowercase hex digits. `serve`
//! takes it from `--token-file` (created there if missing), else from the
//! `ASADB_TOKEN` environment variable, else from `DIR/panel.token`, which
//! is created on first start. Token files are created with mode 0600 and
//! never overwritten. Comparison is constant-time in the token's content.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use rand::RngCore;

use crate::error::{Error, Result};

/// The token file's name inside the data directory.
pub const TOKEN_FILE: &str = "panel.token";
/// The environment variable that may carry the token.
pub const TOKEN_ENV: &str = "ASADB_TOKEN";

/// A secret bearer token.
#[derive(Clone)]
pub struct Token(String);

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(…)")
    }
}

/// Where the server's token came from (printed at start).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenSource {
    File(PathBuf),
    Env,
}

impl Token {
    /// A fresh token from the OS-seeded thread RNG.
    pub fn generate() -> Token {
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        Token(bytes.iter().map(|b| format!("{b:02x}")).collect())
    }

    /// Wraps a token read from somewhere, trimmed; empty or non-ASCII
    /// tokens are refused (they could not travel in a header).
    pub fn parse(s: &str) -> Result<Token> {
        let t = s.trim();
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(Error::Config(
                "the token must be non-empty printable ASCII without spaces".into(),
            ));
        }
        Ok(Token(t.to_string()))
    }

    /// The token's text (for clients).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Compares with a presented token in time independent of where they
    /// differ, so a remote caller cannot find the token byte by byte.
    pub fn matches(&self, presented: &[u8]) -> bool {
        let mine = self.0.as_bytes();
        if mine.len() != presented.len() {
            return false;
        }
        let diff = mine.iter().zip(presented).fold(0u8, |acc, (a, b)| acc | (a ^ b));
        diff == 0
    }

    /// Reads the token file, creating it with a new token (mode 0600) if it
    /// does not exist.
    pub fn load_or_create(path: &Path) -> Result<Token> {
        match fs::read_to_string(path) {
            Ok(s) => {
                Token::parse(&s).map_err(|e| Error::Config(format!("{}: {e}", path.display())))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let token = Token::generate();
                let mut opts = fs::OpenOptions::new();
                opts.write(true).create_new(true);
                #[cfg(unix)]
                std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
                let mut f = opts.open(path)?;
                f.write_all(token.0.as_bytes())?;
                f.write_all(b"\n")?;
                f.sync_all()?;
                Ok(token)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The server's token: `--token-file`, else `ASADB_TOKEN`, else
    /// `DIR/panel.token`.
    pub fn for_server(token_file: Option<&Path>, data_dir: &Path) -> Result<(Token, TokenSource)> {
        if let Some(path) = token_file {
            return Ok((Token::load_or_create(path)?, TokenSource::File(path.to_path_buf())));
        }
        if let Ok(s) = std::env::var(TOKEN_ENV) {
            return Ok((Token::parse(&s)?, TokenSource::Env));
        }
        let path = data_dir.join(TOKEN_FILE);
        Ok((Token::load_or_create(&path)?, TokenSource::File(path)))
    }

    /// A client's token: `--token-file`, else `ASADB_TOKEN`, else
    /// `./asadb-data/panel.token`. Never creates anything.
    pub fn for_client(token_file: Option<&Path>) -> Result<Token> {
        let read = |path: &Path| {
            fs::read_to_string(path)
                .map_err(|e| {
                    Error::Config(format!("cannot read token file {}: {e}", path.display()))
                })
                .and_then(|s| Token::parse(&s))
        };
        if let Some(path) = token_file {
            return read(path);
        }
        if let Ok(s) = std::env::var(TOKEN_ENV) {
            return Token::parse(&s);
        }
        read(&Path::new(crate::config::DEFAULT_DATA_DIR).join(TOKEN_FILE))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_tokens_are_64_hex_digits_and_differ() {
        let a = Token::generate();
        let b = Token::generate();
        assert_eq!(a.as_str().len(), 64);
        assert!(a.as_str().bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a.as_str(), b.as_str());
    }

    #[test]
    fn matches_only_the_exact_token() {
        let t = Token::parse("abc123").unwrap();
        assert!(t.matches(b"abc123"));
        assert!(!t.matches(b"abc124"));
        assert!(!t.matches(b"bbc123"));
        assert!(!t.matches(b"abc12"));
        assert!(!t.matches(b"abc1234"));
        assert!(!t.matches(b""));
    }

    #[test]
    fn parse_refuses_empty_and_spaces() {
        assert!(Token::parse("  \n").is_err());
        assert!(Token::parse("a b").is_err());
        assert_eq!(Token::parse(" tok\n").unwrap().as_str(), "tok");
    }

    #[test]
    fn token_file_is_created_once_with_mode_0600() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(TOKEN_FILE);
        let first = Token::load_or_create(&path).unwrap();
        let again = Token::load_or_create(&path).unwrap();
        assert_eq!(first.as_str(), again.as_str());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}
