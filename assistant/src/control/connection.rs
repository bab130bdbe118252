//! One client connection: bounded request lines in, reply and event lines out.

use serde::Serialize;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};

use super::MAX_LINE;

/// What reading a line gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A complete line (without its newline).
    Text(String),
    /// The client closed the connection.
    Closed,
    /// A line longer than [`MAX_LINE`]: the connection is to be closed.
    TooLong,
    /// Not UTF-8.
    NotText,
}

/// A connection's two halves.
#[derive(Debug)]
pub struct Connection<R, W> {
    reader: BufReader<R>,
    writer: W,
    buf: Vec<u8>,
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin> Connection<R, W> {
    /// Wraps the halves of a stream.
    pub fn new(reader: R, writer: W) -> Connection<R, W> {
        Connection {
            reader: BufReader::new(reader),
            writer,
            buf: Vec::new(),
        }
    }

    /// Reads one line, never buffering more than [`MAX_LINE`] bytes of it.
    ///
    /// # Errors
    /// Reading failed.
    pub async fn read_line(&mut self) -> std::io::Result<Line> {
        self.buf.clear();
        let limit = (MAX_LINE + 1) as u64;
        let n = (&mut self.reader)
            .take(limit)
            .read_until(b'\n', &mut self.buf)
            .await?;
        if n == 0 {
            return Ok(Line::Closed);
        }
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
            if self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
        } else if self.buf.len() > MAX_LINE {
            return Ok(Line::TooLong);
        }
        match std::str::from_utf8(&self.buf) {
            Ok(s) => Ok(Line::Text(s.to_owned())),
            Err(_) => Ok(Line::NotText),
        }
    }

    /// Writes one JSON value as a line.
    ///
    /// # Errors
    /// Writing failed (the client went away).
    pub async fn write_json<T: Serialize>(&mut self, v: &T) -> std::io::Result<()> {
        let mut line = serde_json::to_vec(v).map_err(std::io::Error::other)?;
        line.push(b'\n');
        self.writer.write_all(&line).await?;
        self.writer.flush().await
    }
}
