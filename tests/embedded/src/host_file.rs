//! A host file read through semihosting, as an `embedded_io::Read`: the
//! byte source a real board would get from flash, an SD card or a UART.

use semihosting::fs::File;
use semihosting::io::Read as _;

/// A semihosting file as an `embedded_io` byte source.
pub struct HostFile(pub File);

/// A failed semihosting read.
#[derive(Debug)]
pub struct HostError;

impl core::fmt::Display for HostError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("semihosting read failed")
    }
}

impl core::error::Error for HostError {}

impl embedded_io::Error for HostError {
    fn kind(&self) -> embedded_io::ErrorKind {
        embedded_io::ErrorKind::Other
    }
}

impl embedded_io::ErrorType for HostFile {
    type Error = HostError;
}

impl embedded_io::Read for HostFile {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, HostError> {
        self.0.read(buf).map_err(|_| HostError)
    }
}
