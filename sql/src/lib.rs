//! The SQL engine: B+trees, records, catalog, sqlparser front end, planner,
//! executor and the streaming script splitter. (Being built.)

pub mod btree;
pub mod catalog;
mod error;
pub mod exec;
pub mod expr;
pub mod func;
pub mod integrity;
pub mod keycode;
pub mod parse;
pub mod planner;
pub mod record;
pub mod script;
pub mod session;
pub mod storage;
pub mod value;

pub use error::{Error, Result};
pub use value::Value;
