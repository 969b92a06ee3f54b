"""``python -m factgraph`` runs the CLI."""

from factgraph.cli.main import main

if __name__ == "__main__":
    main()
