"""Parts every app may use, at the bottom of the layers (issue 14's shared home). Modules here
that the pure packages import use the standard library only."""
