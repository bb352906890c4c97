#ifndef CV4L2_H
#define CV4L2_H
/* V4L2 capture over libv4l2, behind an ops table so tests can plug in a fake device. */
int cv4l2_placeholder(void);
#endif
