"""mjscore api: joins the scorer and the vision stage (CLI and HTTP service)."""
