// Stand-in for DDNet's generated header (made by its Python build step):
// snapshot.cpp needs nothing from it when building 0.6/DDNet snapshots.
#pragma once
