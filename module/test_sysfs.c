// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
static int __init h_init(void){return 0;}
static void __exit h_exit(void){}
module_init(h_init);module_exit(h_exit);MODULE_LICENSE("GPL");
