"""Slippi statistics on Spark: games won per character and average stocks
lost per stage, over a folder of replays of any size.

Spark's `binaryFile` source reads the replays; each executor decodes its
share inside `mapInArrow` with the `gamefmt` package (its `games` and
`frames` tables, the same tables `gamefmt export` writes as Parquet), so
the same job runs unchanged on a laptop (`local[*]`) or a cluster
(`spark-submit --master yarn|k8s://...|spark://...`, with the gamefmt wheel
installed on the executors or shipped with `--py-files`/a packed venv).

    python examples/spark/job.py REPLAY_DIR [--out OUT_DIR]

prints the per-character and per-stage tables (and writes them as Parquet
under OUT_DIR when given). `duckdb_query.sql` is the same aggregation in
DuckDB over the Parquet export (`gamefmt export --to parquet OUT replays/`).
"""

import argparse

import pyarrow as pa

# One row per game and port: what each engine aggregates.
PLAYER_SCHEMA = pa.schema(
    [
        ("file", pa.string()),
        ("stage_name", pa.string()),
        ("port", pa.int32()),
        ("character_name", pa.string()),
        ("won", pa.bool_()),
        ("stocks_lost", pa.int32()),
    ]
)


def players_of(name, content):
    """The per-port rows of one replay (none if it does not decode).

    stocks_lost is the port's stocks at its first frame minus those at its
    last (leader, rollback re-sends skipped), as duckdb_query.sql computes.
    """
    import gamefmt

    try:
        replay = gamefmt.open(content)
        games = pa.table(replay.to_arrow("games")).to_pylist()
        frames = pa.table(replay.to_arrow("frames")).select(
            ["frame", "rollback", "port", "follower", "post_stocks_remaining"]
        )
    except gamefmt.Error:
        # A damaged replay, found when opening it or when its tables are
        # decoded (to_arrow decodes a table whole before pyarrow reads
        # it, so the damage is a gamefmt.Error too). It is left out.
        return []
    if not games:
        return []
    game = games[0]
    first, last = {}, {}
    for f in frames.to_pylist():
        if f["rollback"] or f["follower"] or f["post_stocks_remaining"] is None:
            continue
        port = f["port"]
        if port not in first or f["frame"] < first[port][0]:
            first[port] = (f["frame"], f["post_stocks_remaining"])
        if port not in last or f["frame"] > last[port][0]:
            last[port] = (f["frame"], f["post_stocks_remaining"])
    rows = []
    winners = game["winner_ports"] or []
    for port in range(1, 5):
        character = game[f"p{port}_character_name"]
        if game[f"p{port}_type"] is None or port not in first:
            continue
        rows.append(
            {
                "file": name,
                "stage_name": game["stage_name"],
                "port": port,
                "character_name": character,
                "won": port in winners,
                "stocks_lost": first[port][1] - last[port][1],
            }
        )
    return rows


def decode(batches):
    """mapInArrow: binaryFile batches (path, content, ...) in, player rows out."""
    for batch in batches:
        paths = batch.column(batch.schema.get_field_index("path")).to_pylist()
        contents = batch.column(batch.schema.get_field_index("content"))
        rows = []
        for path, content in zip(paths, contents):
            rows.extend(players_of(path.rsplit("/", 1)[-1], content.as_py()))
        yield pa.RecordBatch.from_pylist(rows, schema=PLAYER_SCHEMA)


def run(spark, replays):
    """The players table and the two aggregates, as Spark DataFrames."""
    from pyspark.sql import functions as F

    files = (
        spark.read.format("binaryFile")
        .option("pathGlobFilter", "*.slp")
        .option("recursiveFileLookup", "true")
        .load(replays)
    )
    ddl = "file string, stage_name string, port int, character_name string, won boolean, stocks_lost int"
    players = files.mapInArrow(decode, ddl)
    wins = (
        players.groupBy("character_name")
        .agg(F.sum(F.col("won").cast("int")).alias("wins"), F.count("*").alias("games"))
        .orderBy(F.desc("wins"), "character_name")
    )
    stocks = (
        players.groupBy("stage_name")
        .agg(F.avg("stocks_lost").alias("avg_stocks_lost"), F.count("*").alias("players"))
        .orderBy("stage_name")
    )
    return players, wins, stocks


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("replays", help="folder of .slp files (any Hadoop path)")
    parser.add_argument("--out", help="write the tables as Parquet here")
    parser.add_argument("--master", default=None, help="Spark master (default: spark-submit's, else local[*])")
    args = parser.parse_args()
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("gamefmt-slippi-stats")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    players, wins, stocks = run(spark, args.replays)
    wins.show(50, truncate=False)
    stocks.show(50, truncate=False)
    if args.out:
        players.write.mode("overwrite").parquet(f"{args.out}/players")
        wins.write.mode("overwrite").parquet(f"{args.out}/wins_per_character")
        stocks.write.mode("overwrite").parquet(f"{args.out}/stocks_lost_per_stage")
    spark.stop()


if __name__ == "__main__":
    main()
