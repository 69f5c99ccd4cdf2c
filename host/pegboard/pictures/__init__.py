"""Pictures of boards and solutions: text, SVG."""
