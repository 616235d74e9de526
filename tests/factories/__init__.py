"""factory-boy factories, a module per app. Users and clubs are rows; matches and tournaments
are made through the services, as the code makes them (their rows are projections of the
events the services record)."""
