//! AsaDB facade.
