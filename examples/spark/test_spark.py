"""Runs job.py on Spark in local mode over the corpus replays and checks
that DuckDB over the `gamefmt export` Parquet gives the same numbers.

    pytest examples/spark/test_spark.py

SKIPPED (with the reason) without the corpus, pyspark, pandas, duckdb or Java
(`openjdk-17-jre-headless` is installed through apt when Java is missing
and apt works). CI runs it in its `spark` step, which installs pyspark,
pandas and duckdb from PyPI.
"""

import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "python" / "tests"))

from conftest import corpus_root  # noqa: E402


def java():
    if shutil.which("java"):
        return True
    try:
        subprocess.run(
            ["apt-get", "install", "-y", "--no-install-recommends", "openjdk-17-jre-headless"],
            check=True,
            capture_output=True,
            timeout=600,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return shutil.which("java") is not None


def export_tool():
    """The `gamefmt` command: $GAMEFMT_BIN, or built from the workspace."""
    tool = os.environ.get("GAMEFMT_BIN") or str(REPO / "target" / "debug" / "gamefmt")
    if not Path(tool).is_file():
        subprocess.run(["cargo", "build", "-p", "gamefmt-cli"], cwd=REPO, check=True)
    return tool


def test_spark_and_duckdb_agree(tmp_path):
    root = corpus_root()
    if not root or not (root / "slippi").is_dir():
        pytest.skip("SKIPPED: corpus absent (set GAMEFMT_CORPUS)")
    pyspark = pytest.importorskip("pyspark", reason="SKIPPED: pyspark not installed")
    duckdb = pytest.importorskip("duckdb", reason="SKIPPED: duckdb not installed")
    # Spark's mapInArrow needs pandas (>= 2.2) on the driver.
    pytest.importorskip("pandas", reason="SKIPPED: pandas not installed (pyspark's mapInArrow needs it)")
    if not java():
        pytest.skip("SKIPPED: no Java and openjdk-17-jre-headless could not be installed")
    import job

    replays = root / "slippi"
    out = tmp_path / "export"
    # Exit status 1 means some inputs were refused (the corpus has damaged
    # replays); their rows are left out by both engines.
    status = subprocess.run([export_tool(), "export", "--to", "parquet", str(out), str(replays)]).returncode
    assert status in (0, 1)

    # The workers run this interpreter (where gamefmt and pyarrow are).
    os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = (
        pyspark.sql.SparkSession.builder.master("local[2]")
        .appName("gamefmt-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    try:
        # The executors import job.py too (decode is pickled by reference).
        spark.sparkContext.addPyFile(str(HERE / "job.py"))
        players, wins, stocks = job.run(spark, str(replays))
        spark_players = players.count()
        spark_wins = {r["character_name"]: (r["wins"], r["games"]) for r in wins.collect()}
        spark_stocks = {r["stage_name"]: (r["avg_stocks_lost"], r["players"]) for r in stocks.collect()}
    finally:
        spark.stop()

    con = duckdb.connect()
    con.execute(f"SET VARIABLE out = '{out}'")
    con.execute((HERE / "duckdb_query.sql").read_text())
    duck_players = con.execute("SELECT count(*) FROM players").fetchone()[0]
    duck_wins = {c: (w, g) for c, w, g in con.execute("SELECT * FROM wins_per_character").fetchall()}
    duck_stocks = {s: (a, n) for s, a, n in con.execute("SELECT * FROM stocks_lost_per_stage").fetchall()}

    assert spark_players > 50
    assert spark_players == duck_players
    assert spark_wins == duck_wins
    assert spark_stocks.keys() == duck_stocks.keys()
    for stage, (avg, n) in spark_stocks.items():
        assert n == duck_stocks[stage][1]
        assert math.isclose(avg, duck_stocks[stage][0], rel_tol=1e-9), stage
