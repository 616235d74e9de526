from games.rules.cli import main

raise SystemExit(main())
