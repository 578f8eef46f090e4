"""The Postgres checkpointer connects with the database settings Django uses, whatever they contain."""
from __future__ import annotations

from psycopg.conninfo import conninfo_to_dict

from agent.graph.checkpointer import postgres_conninfo


def test_a_password_with_a_space_and_quotes_survives_the_connection_string() -> None:
    password = "pa ss'word\"\\ end"
    conninfo = postgres_conninfo({"NAME": "pm db", "USER": "pm", "PASSWORD": password, "HOST": "db.internal",
                                  "PORT": 5433})
    assert conninfo_to_dict(conninfo) == {"dbname": "pm db", "user": "pm", "password": password,
                                          "host": "db.internal", "port": "5433"}


def test_empty_settings_are_left_to_libpq_defaults() -> None:
    conninfo = postgres_conninfo({"NAME": "pm", "USER": "", "PASSWORD": "", "HOST": "", "PORT": ""})
    assert conninfo_to_dict(conninfo) == {"dbname": "pm"}
