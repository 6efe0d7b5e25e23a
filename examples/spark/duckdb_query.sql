-- The Spark job's aggregation (job.py) in DuckDB over the Parquet export:
--   gamefmt-export export --to parquet OUT replays/
--   duckdb -c "SET VARIABLE out = 'OUT'; .read examples/spark/duckdb_query.sql"
-- stocks_lost: a port's stocks at its first frame minus those at its last
-- (leader, rollback re-sends skipped), as job.py computes it.
CREATE OR REPLACE TEMP VIEW games AS
  SELECT * FROM read_parquet(getvariable('out') || '/format=slippi/table=games/*.parquet');
CREATE OR REPLACE TEMP VIEW frames AS
  SELECT * FROM read_parquet(getvariable('out') || '/format=slippi/table=frames/*.parquet');
CREATE OR REPLACE TEMP VIEW stocks AS
  SELECT file, port,
         arg_min(post_stocks_remaining, frame) - arg_max(post_stocks_remaining, frame) AS stocks_lost
  FROM frames
  WHERE NOT rollback AND NOT follower AND post_stocks_remaining IS NOT NULL
  GROUP BY file, port;
CREATE OR REPLACE TEMP VIEW players AS
  SELECT g.file, g.stage_name, p.port,
         [g.p1_character_name, g.p2_character_name, g.p3_character_name, g.p4_character_name][p.port] AS character_name,
         list_contains(coalesce(g.winner_ports, []), p.port) AS won,
         s.stocks_lost
  FROM games g
  CROSS JOIN (SELECT unnest([1, 2, 3, 4]) AS port) p
  JOIN stocks s ON s.file = g.file AND s.port = p.port
  WHERE [g.p1_type, g.p2_type, g.p3_type, g.p4_type][p.port] IS NOT NULL;
CREATE OR REPLACE TEMP VIEW wins_per_character AS
  SELECT character_name, sum(won::int) AS wins, count(*) AS games
  FROM players GROUP BY character_name;
CREATE OR REPLACE TEMP VIEW stocks_lost_per_stage AS
  SELECT stage_name, avg(stocks_lost) AS avg_stocks_lost, count(*) AS players
  FROM players GROUP BY stage_name;
