//! slippi
