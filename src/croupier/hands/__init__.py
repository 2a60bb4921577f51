"""Hand evaluation shared by the engines, the analysis and the simulator."""
