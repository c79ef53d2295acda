//! The interchange error type.

/// Why an import or export failed. Input errors name the source line
/// (or the sheet row of a workbook) they are about.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The body is not what its format says, or is damaged at `line`.
    #[error("line {line}: {message}")]
    Malformed { line: u64, message: String },
    /// The body uses a construct the importer cannot translate.
    #[error("line {line}: unsupported: {message}")]
    Unsupported { line: u64, message: String },
    /// The import options are invalid or do not fit the format; refused
    /// before the body is read.
    #[error("{0}")]
    InvalidOption(String),
    /// Reading the body or writing an export failed.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// The engine failed while exporting.
    #[error(transparent)]
    Sql(#[from] asadb_sql::Error),
}

impl Error {
    /// A stable machine code for job errors.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Malformed { .. } => "import_malformed",
            Error::Unsupported { .. } => "import_unsupported",
            Error::InvalidOption(_) => "invalid_input",
            Error::Io(_) => "io",
            Error::Sql(_) => "sql_error",
        }
    }

    /// The source line the error is about, if any.
    pub fn line(&self) -> Option<u64> {
        match self {
            Error::Malformed { line, .. } | Error::Unsupported { line, .. } => Some(*line),
            _ => None,
        }
    }
}

/// Result alias of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `malformed!(line, "…", args)` → `Error::Malformed`.
macro_rules! malformed {
    ($line:expr, $($args:tt)*) => {
        $crate::Error::Malformed { line: $line, message: format!($($args)*) }
    };
}

/// `unsupported!(line, "…", args)` → `Error::Unsupported`.
#[allow(unused_macros)] // the dump readers' (next)
macro_rules! unsupported {
    ($line:expr, $($args:tt)*) => {
        $crate::Error::Unsupported { line: $line, message: format!($($args)*) }
    };
}

pub(crate) use malformed;
#[allow(unused_imports)]
pub(crate) use unsupported;
