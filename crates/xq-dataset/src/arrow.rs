//! The tables as Arrow record batches and Parquet files (the `parquet` feature).
//!
//! The schema is [`crate::columns`] in Arrow's types, with pyarrow's names for the inner fields
//! of maps (`entries`, `key`, `value`) and lists (`item`), so that a file written here and one
//! written by `xq.write_dataset` read back as the same table.

use std::{io::Write, path::Path, sync::Arc};

pub use arrow_array;
use arrow_array::{
    ArrayRef, RecordBatch,
    builder::{
        BooleanBuilder, FixedSizeBinaryBuilder, Int8Builder, ListBuilder, MapBuilder,
        MapFieldNames, StringBuilder, UInt8Builder, UInt16Builder, UInt32Builder,
    },
};
use arrow_schema::{ArrowError, DataType, Field, Fields, Schema, SchemaRef};
pub use parquet;
use parquet::{
    arrow::{ArrowWriter, arrow_reader::ParquetRecordBatchReaderBuilder},
    basic::{Compression, ZstdLevel},
    errors::ParquetError,
    file::properties::WriterProperties,
};
use xq_core::vocab;

use crate::{ColumnType, Row, Table, columns};

/// Rows gathered before they are handed to the Parquet writer as one record batch.
pub const BATCH_ROWS: usize = 8192;

fn data_type(t: ColumnType) -> DataType {
    match t {
        ColumnType::String => DataType::Utf8,
        ColumnType::UInt8 => DataType::UInt8,
        ColumnType::UInt16 => DataType::UInt16,
        ColumnType::UInt32 => DataType::UInt32,
        ColumnType::Int8 => DataType::Int8,
        ColumnType::Bool => DataType::Boolean,
        ColumnType::FixedBinary(n) => DataType::FixedSizeBinary(n as i32),
        ColumnType::StringList => {
            DataType::List(Arc::new(Field::new("item", DataType::Utf8, true)))
        }
        ColumnType::StringMap => DataType::Map(
            Arc::new(Field::new(
                "entries",
                DataType::Struct(Fields::from(vec![
                    Field::new("key", DataType::Utf8, false),
                    Field::new("value", DataType::Utf8, true),
                ])),
                false,
            )),
            false,
        ),
    }
}

/// The Arrow schema of `table`.
pub fn schema(table: Table) -> SchemaRef {
    Arc::new(Schema::new(
        columns(table)
            .iter()
            .map(|&(name, t)| Field::new(name, data_type(t), true))
            .collect::<Vec<_>>(),
    ))
}

fn string_list() -> ListBuilder<StringBuilder> {
    ListBuilder::new(StringBuilder::new())
}

/// Columns of the games table being built.
#[derive(Debug)]
struct Games {
    game_id: StringBuilder,
    file: StringBuilder,
    index: UInt32Builder,
    tags: MapBuilder<StringBuilder, StringBuilder>,
    red: StringBuilder,
    black: StringBuilder,
    event: StringBuilder,
    opening: StringBuilder,
    start_fen: StringBuilder,
    moves_iccs: ListBuilder<StringBuilder>,
    moves_chinese: ListBuilder<StringBuilder>,
    result: StringBuilder,
    plies: UInt16Builder,
    ok: BooleanBuilder,
    error: StringBuilder,
    split: StringBuilder,
}

/// Columns of the positions table being built.
#[derive(Debug)]
struct Positions {
    game_id: StringBuilder,
    ply: UInt16Builder,
    fen: StringBuilder,
    move_iccs: StringBuilder,
    label: UInt16Builder,
    legal_mask: FixedSizeBinaryBuilder,
    result_stm: Int8Builder,
    halfmove_clock: UInt16Builder,
    repetition: UInt8Builder,
    nature: StringBuilder,
    split: StringBuilder,
}

#[derive(Debug)]
enum Builders {
    Games(Box<Games>),
    Positions(Box<Positions>),
}

/// Rows of one table gathered into an Arrow record batch.
#[derive(Debug)]
pub struct BatchBuilder {
    schema: SchemaRef,
    builders: Builders,
    rows: usize,
}

impl BatchBuilder {
    /// An empty batch of `table`.
    pub fn new(table: Table) -> BatchBuilder {
        let builders = match table {
            Table::Games => Builders::Games(Box::new(Games {
                game_id: StringBuilder::new(),
                file: StringBuilder::new(),
                index: UInt32Builder::new(),
                tags: MapBuilder::new(
                    Some(MapFieldNames {
                        entry: "entries".to_owned(),
                        key: "key".to_owned(),
                        value: "value".to_owned(),
                    }),
                    StringBuilder::new(),
                    StringBuilder::new(),
                ),
                red: StringBuilder::new(),
                black: StringBuilder::new(),
                event: StringBuilder::new(),
                opening: StringBuilder::new(),
                start_fen: StringBuilder::new(),
                moves_iccs: string_list(),
                moves_chinese: string_list(),
                result: StringBuilder::new(),
                plies: UInt16Builder::new(),
                ok: BooleanBuilder::new(),
                error: StringBuilder::new(),
                split: StringBuilder::new(),
            })),
            Table::Positions => Builders::Positions(Box::new(Positions {
                game_id: StringBuilder::new(),
                ply: UInt16Builder::new(),
                fen: StringBuilder::new(),
                move_iccs: StringBuilder::new(),
                label: UInt16Builder::new(),
                legal_mask: FixedSizeBinaryBuilder::new(vocab::PACKED as i32),
                result_stm: Int8Builder::new(),
                halfmove_clock: UInt16Builder::new(),
                repetition: UInt8Builder::new(),
                nature: StringBuilder::new(),
                split: StringBuilder::new(),
            })),
        };
        BatchBuilder {
            schema: schema(table),
            builders,
            rows: 0,
        }
    }

    /// The rows gathered so far.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no row has been gathered.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Adds a row; a row of the other table is an error.
    pub fn push(&mut self, row: &Row<'_>) -> Result<(), ArrowError> {
        match (&mut self.builders, row) {
            (Builders::Games(b), Row::Game(r)) => {
                b.game_id.append_value(&r.game_id);
                b.file.append_option(r.file.as_deref());
                b.index.append_option(r.index);
                for (k, v) in &r.tags {
                    b.tags.keys().append_value(k);
                    b.tags.values().append_value(v);
                }
                b.tags.append(true)?;
                b.red.append_option(r.red.as_deref());
                b.black.append_option(r.black.as_deref());
                b.event.append_option(r.event.as_deref());
                b.opening.append_option(r.opening.as_deref());
                b.start_fen.append_value(&r.start_fen);
                for m in &r.moves_iccs {
                    b.moves_iccs.values().append_value(m);
                }
                b.moves_iccs.append(true);
                for m in &r.moves_chinese {
                    b.moves_chinese.values().append_value(m);
                }
                b.moves_chinese.append(true);
                b.result.append_option(r.result);
                b.plies.append_value(r.plies);
                b.ok.append_value(r.ok);
                b.error.append_option(r.error.as_deref());
                b.split.append_value(r.split);
            }
            (Builders::Positions(b), Row::Position(r)) => {
                b.game_id.append_value(r.game_id);
                b.ply.append_value(r.ply);
                b.fen.append_value(&r.fen);
                b.move_iccs.append_value(&r.move_iccs);
                b.label.append_option(r.label);
                b.legal_mask.append_value(r.legal_mask)?;
                b.result_stm.append_option(r.result_stm);
                b.halfmove_clock.append_value(r.halfmove_clock);
                b.repetition.append_value(r.repetition);
                b.nature.append_option(r.nature);
                b.split.append_value(r.split);
            }
            _ => {
                return Err(ArrowError::InvalidArgumentError(
                    "a row of the other table".to_owned(),
                ));
            }
        }
        self.rows += 1;
        Ok(())
    }

    /// The rows gathered as a record batch; the builder is empty again.
    pub fn finish(&mut self) -> Result<RecordBatch, ArrowError> {
        let columns: Vec<ArrayRef> = match &mut self.builders {
            Builders::Games(b) => vec![
                Arc::new(b.game_id.finish()),
                Arc::new(b.file.finish()),
                Arc::new(b.index.finish()),
                Arc::new(b.tags.finish()),
                Arc::new(b.red.finish()),
                Arc::new(b.black.finish()),
                Arc::new(b.event.finish()),
                Arc::new(b.opening.finish()),
                Arc::new(b.start_fen.finish()),
                Arc::new(b.moves_iccs.finish()),
                Arc::new(b.moves_chinese.finish()),
                Arc::new(b.result.finish()),
                Arc::new(b.plies.finish()),
                Arc::new(b.ok.finish()),
                Arc::new(b.error.finish()),
                Arc::new(b.split.finish()),
            ],
            Builders::Positions(b) => vec![
                Arc::new(b.game_id.finish()),
                Arc::new(b.ply.finish()),
                Arc::new(b.fen.finish()),
                Arc::new(b.move_iccs.finish()),
                Arc::new(b.label.finish()),
                Arc::new(b.legal_mask.finish()),
                Arc::new(b.result_stm.finish()),
                Arc::new(b.halfmove_clock.finish()),
                Arc::new(b.repetition.finish()),
                Arc::new(b.nature.finish()),
                Arc::new(b.split.finish()),
            ],
        };
        self.rows = 0;
        RecordBatch::try_new(self.schema.clone(), columns)
    }
}

/// Rows of one table written as a Parquet file (zstd, as `xq.write_dataset` writes), a record
/// batch at a time.
#[derive(Debug)]
pub struct ParquetWriter<W: Write + Send> {
    writer: ArrowWriter<W>,
    batch: BatchBuilder,
}

impl<W: Write + Send> ParquetWriter<W> {
    /// Starts a Parquet file of `table` on `out`.
    pub fn new(out: W, table: Table) -> Result<ParquetWriter<W>, ParquetError> {
        let props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::default()))
            .build();
        Ok(ParquetWriter {
            writer: ArrowWriter::try_new(out, schema(table), Some(props))?,
            batch: BatchBuilder::new(table),
        })
    }

    /// Adds a row.
    pub fn push(&mut self, row: &Row<'_>) -> Result<(), ParquetError> {
        self.batch.push(row)?;
        if self.batch.len() >= BATCH_ROWS {
            self.writer.write(&self.batch.finish()?)?;
        }
        Ok(())
    }

    /// Writes a record batch of the table (after the rows pushed so far).
    pub fn write_batch(&mut self, batch: &RecordBatch) -> Result<(), ParquetError> {
        if !self.batch.is_empty() {
            self.writer.write(&self.batch.finish()?)?;
        }
        self.writer.write(batch)
    }

    /// Writes what is left and the file's footer; gives back the output.
    pub fn finish(mut self) -> Result<W, ParquetError> {
        if !self.batch.is_empty() {
            self.writer.write(&self.batch.finish()?)?;
        }
        self.writer.into_inner()
    }
}

/// Every record batch of a Parquet file (to read a dataset back).
pub fn read_parquet(path: &Path) -> Result<Vec<RecordBatch>, ParquetError> {
    let file = std::fs::File::open(path).map_err(|e| ParquetError::External(Box::new(e)))?;
    ParquetRecordBatchReaderBuilder::try_new(file)?
        .build()?
        .collect::<Result<Vec<_>, ArrowError>>()
        .map_err(ParquetError::from)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use xq_core::{Move, Position};
    use xq_record::Game;

    use super::*;
    use crate::{Options, Source, rows};

    #[test]
    fn both_tables_round_trip_through_parquet() {
        let game = Game {
            tags: vec![
                ("Red".to_owned(), "甲".to_owned()),
                ("Result".to_owned(), "1-0".to_owned()),
            ],
            ..Game::default()
        };
        let start = Position::new();
        let line: Vec<Move> = ["h2e2", "h9g7", "h0g2"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let src = Source {
            file: Some("a.pgn"),
            index: Some(0),
            game: &game,
            ok: true,
            error: None,
            start: Some(&start),
            mainline: &line,
        };
        let dir = std::env::temp_dir().join(format!("xq-dataset-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for table in [Table::Games, Table::Positions] {
            let path = dir.join(format!("{}.parquet", table.name()));
            let mut w = ParquetWriter::new(std::fs::File::create(&path).unwrap(), table).unwrap();
            let mut n = 0;
            rows(&src, table, &Options::default(), &mut |r| {
                w.push(&r).unwrap();
                n += 1;
            });
            w.finish().unwrap();
            let batches = read_parquet(&path).unwrap();
            assert_eq!(batches[0].schema(), schema(table));
            assert_eq!(batches.iter().map(RecordBatch::num_rows).sum::<usize>(), n);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
