"""`adr site`: the decisions as a static website. `gather` reads git once, `markup` turns a
record's markdown into safe HTML, `graph` draws the relations as SVG, `build` writes the pages
and swaps the folder in. Jinja2 and markdown-it load only here, when a site is built."""
