"""`accounts` is used by `games` and `tournaments`, so it must not use them (decision 0013). The
project's import-linter contracts do not say so yet; this test does."""

import grimp


def test_accounts_imports_neither_games_nor_tournaments() -> None:
    graph = grimp.build_graph("accounts", include_external_packages=True)

    imported = {
        (importer, imported)
        for importer in graph.find_descendants("accounts")
        for imported in graph.find_modules_directly_imported_by(importer)
        if imported.split(".")[0] in {"games", "tournaments"}
    }

    assert imported == set()
